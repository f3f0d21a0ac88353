import { DomainError } from '@tablelock/errors';
import type { Principal } from '@tablelock/identity';
import { RETRY_AFTER_SECONDS } from '../databaseUnreachable';
import type { ExportLimits } from './exportLimits';

export interface ExportSlots {
  /** Takes a slot for `caller`'s export, or TOO_MANY_REQUESTS; returns its release. */
  take(caller: Principal): () => void;
}

/**
 * The exports this process runs: at most `atOnce`, and `perCaller` of one user or API key, so
 * that no one caller can keep everyone else from exporting.
 */
export function createExportSlots(limits: Pick<ExportLimits, 'atOnce' | 'perCaller'>): ExportSlots {
  let running = 0;
  const byCaller = new Map<string, number>();
  const busy = (message: string) =>
    new DomainError('TOO_MANY_REQUESTS', message, { retryAfterSeconds: RETRY_AFTER_SECONDS });
  return {
    take(caller) {
      const key = `${caller.kind}:${caller.id}`;
      const own = byCaller.get(key) ?? 0;
      if (own >= limits.perCaller) {
        throw busy('Your other export is still running; try again once it is done.');
      }
      if (running >= limits.atOnce) throw busy('Other exports are running; try again shortly.');
      running++;
      byCaller.set(key, own + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        running--;
        const left = (byCaller.get(key) ?? 1) - 1;
        if (left > 0) byCaller.set(key, left);
        else byCaller.delete(key);
      };
    },
  };
}
