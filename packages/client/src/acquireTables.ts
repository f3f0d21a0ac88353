import { randomUUID } from 'node:crypto';
import { acquireTableLockMutation, acquireTableLocksMutation } from './lockOperations';
import type { HeldTable } from './renewLeases';
import type { TablelockApi } from './tablelockApi';

/** How long an acquisition is retried, beyond its wait, while the API cannot be reached. */
const ACQUIRE_RETRY_MS = 30_000;

/**
 * Starts editing `tables`, all or nothing (one mutation, so one idempotency key: a retry after
 * a lost answer gets the first answer's grant instead of acting again). `wait`: seconds to wait
 * in line for busy tables; without it, a busy table is LOCK_CONFLICT at once. `rows`: a row
 * scope of the one table.
 */
export async function acquireTables(
  api: TablelockApi,
  tables: readonly string[],
  leaseSeconds: number | null,
  signal: AbortSignal,
  { wait, rows }: { wait?: number | undefined; rows?: readonly string[] | undefined },
): Promise<HeldTable[]> {
  const request = { leaseSeconds, wait, idempotencyKey: randomUUID() };
  // A stop while waiting in line cuts the wait off; an acquisition that answers at once is
  // heard out, so that a grant it brings can be released (withTableLock).
  const options = {
    retryForMs: (wait ?? 0) * 1000 + api.retryFor(ACQUIRE_RETRY_MS),
    signal,
    letAnswerArrive: !wait,
  };
  const [table, ...more] = tables;
  if (table !== undefined && more.length === 0) {
    const { acquireTableLock } = await api.request(
      acquireTableLockMutation,
      { ...request, table, ...(rows ? { rows: [...rows] } : {}) },
      options,
    );
    return [acquireTableLock];
  }
  const { acquireTableLocks } = await api.request(
    acquireTableLocksMutation,
    { ...request, tables: [...tables] },
    options,
  );
  return acquireTableLocks;
}
