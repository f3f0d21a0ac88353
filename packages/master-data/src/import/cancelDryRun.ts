import type { Queryable, TransactionClient } from '@tablelock/db';
import { MasterDataError } from '../masterDataError';

/**
 * Runs a dry run's transaction so that `signal` stops it in the database too: its session is
 * named after the dry run (for this transaction only, so the name goes with it), and an abort
 * cancels the statement that session runs (a classification of a big file, or a wait for the
 * editor's previous dry run) from another connection. The transaction then fails and keeps
 * nothing. After it ends, the name is gone: a late cancel reaches no later user of the
 * connection.
 */
export async function stopWhenAborted<T>(
  db: Queryable,
  tx: TransactionClient,
  dryRunId: string,
  signal: AbortSignal | undefined,
  work: () => Promise<T>,
): Promise<T> {
  if (!signal) return work();
  const name = `tablelock dry run ${dryRunId}`;
  await tx.$executeRaw`SELECT set_config('application_name', ${name}, true)`;
  const cancel = () => {
    db.$executeRaw`SELECT pg_cancel_backend(pid) FROM pg_stat_activity
      WHERE application_name = ${name}`.catch(() => {
      // The dry run still stops: it checks the signal before it is kept.
    });
  };
  signal.addEventListener('abort', cancel, { once: true });
  try {
    throwIfCancelled(signal);
    return await work();
  } catch (error) {
    // The cancelled statement's error (or any other it caused) says only that it was cancelled.
    throwIfCancelled(signal);
    throw error;
  } finally {
    signal.removeEventListener('abort', cancel);
  }
}

/** Throws, once its client has gone, that the dry run was cancelled. */
export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    throw new MasterDataError('BAD_USER_INPUT', 'The dry run was cancelled: its client went away.');
  }
}
