import { acquireTables } from './acquireTables';
import { onExitSignal } from './exitSignals';
import { holdTableLocks, type TableLockHold } from './holdTableLocks';
import type { HeldTable } from './renewLeases';
import type { TableLock } from './TableLock';
import type { TablelockApi } from './tablelockApi';

export interface WithTableLockOptions {
  /**
   * Seconds (1–3600) to wait in a first-come-first-served line while the tables are busy; then
   * LOCK_WAIT_TIMEOUT. Without it, a busy table is LOCK_CONFLICT at once.
   */
  wait?: number;
  /**
   * The lease in seconds (15–3600; default 60), renewed every third of it: a process that dies
   * holds the lock at most this long. null: no expiry (admin API keys only).
   */
  leaseSeconds?: number | null;
  /** Stops waiting for the lock, or aborts `lock.signal` while the work runs. */
  signal?: AbortSignal;
  /**
   * A row scope of the one table instead of the whole table: values of its row-lock column
   * (docs/decisions/0021). Others may hold other values of it at once.
   */
  rows?: readonly string[];
}

const DEFAULT_LEASE_SECONDS = 60;
/** How long a release is retried while the API cannot be reached. */
const RELEASE_RETRY_MS = 30_000;
/** The same when the process is about to end: it should not linger for long. */
const RELEASE_BEFORE_EXIT_RETRY_MS = 5_000;

/**
 * Runs `work` while holding `tables`, and releases them when it returns or throws, or when the
 * process gets SIGINT or SIGTERM that nothing else handles (then the process ends by the signal).
 * Rejects with LOCK_LOST if the lock was lost while `work` ran, even if `work` returned.
 */
export async function withTableLock<T>(
  api: TablelockApi,
  tables: string | readonly string[],
  work: (lock: TableLock) => Promise<T>,
  options: WithTableLockOptions = {},
): Promise<T> {
  const names = typeof tables === 'string' ? [tables] : [...tables];
  if (names.length === 0) throw new TypeError('withTableLock needs at least one table.');
  if (options.rows && names.length !== 1) {
    throw new TypeError('withTableLock takes rows of one table only.');
  }
  const leaseSeconds =
    options.leaseSeconds === undefined ? DEFAULT_LEASE_SECONDS : options.leaseSeconds;
  options.signal?.throwIfAborted();
  const stop = new AbortController();
  const stopWithCaller = () => stop.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', stopWithCaller, { once: true });
  let hold: TableLockHold | undefined;
  let acquisition: Promise<HeldTable[]> | undefined;
  const stopListening = onExitSignal(async (signal, processEnds) => {
    stop.abort(new DOMException(`Received ${signal}.`, 'AbortError'));
    // Otherwise the process goes on: the work decides when to end, and then releases.
    if (!processEnds) return;
    // An answer on its way may still grant the lock: it is released too before the process ends.
    await acquisition?.catch(() => {});
    await hold?.release(RELEASE_BEFORE_EXIT_RETRY_MS).catch(() => {});
  });
  try {
    acquisition = acquireTables(api, names, leaseSeconds, stop.signal, options);
    const held = await acquisition;
    hold = holdTableLocks(api, held, leaseSeconds, stop);
    // Stopped while the grant was on its way: nothing runs, and the lock is given back at once.
    if (stop.signal.aborted) {
      await hold.release(RELEASE_BEFORE_EXIT_RETRY_MS).catch(() => {});
      throw stop.signal.reason;
    }
    let result: T;
    try {
      result = await work(hold.lock);
    } catch (error) {
      // The work's failure is the one to report; the lease ends a lock the release missed.
      await hold.release(api.retryFor(RELEASE_RETRY_MS)).catch(() => {});
      throw error;
    }
    const releaseFailure = await hold.release(api.retryFor(RELEASE_RETRY_MS)).then(
      () => undefined,
      (error: unknown) => ({ error }),
    );
    const lost = hold.lostBecause();
    if (lost) throw lost;
    if (releaseFailure) throw releaseFailure.error;
    return result;
  } finally {
    stopListening();
    options.signal?.removeEventListener('abort', stopWithCaller);
  }
}
