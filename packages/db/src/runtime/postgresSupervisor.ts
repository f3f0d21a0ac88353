import { setTimeout as sleep } from 'node:timers/promises';

/** What a supervisor tells about the Postgres it keeps running. */
export interface PostgresSupervision {
  /** Postgres `pid` is gone although nobody asked it to stop (a crash, an OOM kill). */
  onDied(pid: number): void;
  /** A start after a death failed; the next is tried after `retryInMs`. */
  onRestartFailed(reason: string, retryInMs: number): void;
  /** Postgres serves again, as `pid`, `downMs` after the death was noticed. */
  onRestarted(pid: number, downMs: number): void;
}

export interface PostgresSupervisor {
  /** Stops watching; waits for a start under way, which then stops at once. */
  stop(): Promise<void>;
}

interface SupervisedPostgres {
  /** The pid of the Postgres started last. */
  pid(): number;
  isRunning(pid: number): boolean;
  /** Starts Postgres again; resolves with its pid once it takes connections. */
  start(): Promise<number>;
  /** Stops the Postgres that `start` just started. */
  stop(): Promise<void>;
}

// Postgres is this process's child, so its death is seen by asking after its pid: a dead child
// is reaped by Node at once and its pid no longer answers.
const CHECK_INTERVAL_MS = 500;
// Backoff between failed starts: a Postgres that cannot start (its old backends still hold the
// shared memory, a full disk) is not hammered, and one that can comes back within a second.
const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 15_000;

/**
 * Keeps a Postgres of this process running: when it dies, starts it again with backoff until it
 * serves, telling `supervision` once of the death and once of the return.
 */
export function supervisePostgres(
  postgres: SupervisedPostgres,
  supervision: PostgresSupervision,
): PostgresSupervisor {
  const stopping = new AbortController();
  let restarting: Promise<void> | undefined;

  const restart = async (deadPid: number) => {
    const diedAt = Date.now();
    supervision.onDied(deadPid);
    let retryInMs = FIRST_RETRY_MS;
    while (!stopping.signal.aborted) {
      try {
        const pid = await postgres.start();
        if (stopping.signal.aborted) return await postgres.stop();
        supervision.onRestarted(pid, Date.now() - diedAt);
        return;
      } catch (error) {
        supervision.onRestartFailed(
          error instanceof Error ? error.message : String(error),
          retryInMs,
        );
      }
      await sleep(retryInMs, undefined, { signal: stopping.signal, ref: false }).catch(() => {});
      retryInMs = Math.min(retryInMs * 2, MAX_RETRY_MS);
    }
  };

  const check = setInterval(() => {
    if (restarting || stopping.signal.aborted) return;
    const pid = postgres.pid();
    if (postgres.isRunning(pid)) return;
    restarting = restart(pid).finally(() => {
      restarting = undefined;
    });
  }, CHECK_INTERVAL_MS);
  check.unref();

  return {
    async stop() {
      stopping.abort();
      clearInterval(check);
      await restarting;
    },
  };
}
