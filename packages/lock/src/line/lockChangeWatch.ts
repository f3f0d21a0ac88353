import type { LockAction } from '@tablelock/db';
import type { LockEventRecord } from '../reads/readLockEvents';

/**
 * Lock changes as they commit, from before a waiter's first look on (so none is missed between
 * a look and the wait); `null` when some may have gone unheard (the feed reconnected). Whoever
 * opened it closes it.
 */
export type LockChanges = AsyncIterator<LockEventRecord | null>;

/** What ends a wait for a change. */
export type Wakeup = 'changed' | 'timedOut' | 'aborted' | 'ended';

// What may free a table for someone waiting: its editing ends, one in line before them leaves,
// or its freeze ends.
const FREEING: ReadonlySet<LockAction> = new Set([
  'release',
  'expire',
  'force_release',
  'dequeued',
  'thaw',
]);

/** Whether `event` may have freed one of `tables`. */
export const freesAnyOf =
  (tables: ReadonlySet<string>) =>
  (event: LockEventRecord): boolean =>
    FREEING.has(event.action) && tables.has(event.tableName);

/**
 * Waits on a stream of lock changes for one that matters. A wait that ends by time or abort
 * keeps the change it was waiting for: the next wait gets it.
 */
export class LockChangeWatch {
  #pending: Promise<IteratorResult<LockEventRecord | null>> | undefined;

  constructor(private readonly changes: LockChanges) {}

  /** Until a change `matters` (or may have been missed), `deadline` (epoch ms) or `signal`. */
  async until(
    matters: (event: LockEventRecord) => boolean,
    deadline: number,
    signal?: AbortSignal,
  ): Promise<Wakeup> {
    for (;;) {
      this.#pending ??= this.changes.next();
      const next = await settleFirst(this.#pending, deadline, signal);
      if (next === 'timedOut' || next === 'aborted') return next;
      this.#pending = undefined;
      if (next.done) return 'ended';
      if (next.value === null || matters(next.value)) return 'changed';
    }
  }
}

function settleFirst<T>(
  pending: Promise<T>,
  deadline: number,
  signal?: AbortSignal,
): Promise<T | 'timedOut' | 'aborted'> {
  if (signal?.aborted) return Promise.resolve('aborted');
  return new Promise((resolve, reject) => {
    const finish = (outcome: T | 'timedOut' | 'aborted') => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const onAbort = () => finish('aborted');
    // Beyond what setTimeout takes: a wait without a deadline.
    const delay = Math.min(Math.max(0, deadline - Date.now()), 2 ** 31 - 1);
    const timer = Number.isFinite(deadline)
      ? setTimeout(() => finish('timedOut'), delay)
      : undefined;
    signal?.addEventListener('abort', onAbort, { once: true });
    pending.then(finish, (error: unknown) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
  });
}
