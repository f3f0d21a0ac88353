import { DomainError } from '@tablelock/errors';

/** Imports one API process runs at once: each holds a database connection while it works. */
export const MAX_IMPORTS_AT_ONCE = 4;
/** Imports one user or API key runs at once in one process. */
export const MAX_IMPORTS_PER_CALLER = 2;
const RETRY_AFTER_SECONDS = 10;

/**
 * Places for imports under way in this process, in all and per caller: one caller cannot
 * take them all, and many cannot hold the process's memory and connections.
 */
export function createImportSlots(
  limits = { atOnce: MAX_IMPORTS_AT_ONCE, perCaller: MAX_IMPORTS_PER_CALLER },
) {
  let running = 0;
  const byCaller = new Map<string, number>();
  return {
    /** Takes a place for `caller`, or refuses with TOO_MANY_REQUESTS; gives a release. */
    take(caller: string): () => void {
      const mine = byCaller.get(caller) ?? 0;
      if (mine >= limits.perCaller || running >= limits.atOnce) {
        throw new DomainError(
          'TOO_MANY_REQUESTS',
          mine >= limits.perCaller
            ? `You have ${mine} imports under way; wait for one to end.`
            : 'Other imports are under way; try again shortly.',
          { retryAfterSeconds: RETRY_AFTER_SECONDS },
        );
      }
      running++;
      byCaller.set(caller, mine + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        running--;
        const left = (byCaller.get(caller) ?? 1) - 1;
        if (left === 0) byCaller.delete(caller);
        else byCaller.set(caller, left);
      };
    },
    /** Imports under way now (for tests and metrics). */
    get running() {
      return running;
    },
  };
}

export type ImportSlots = ReturnType<typeof createImportSlots>;
