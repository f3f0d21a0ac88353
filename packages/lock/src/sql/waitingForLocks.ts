import { inTransaction, postgresErrorCode, type Queryable } from '@tablelock/db';
import { LockError } from '../core/lockError';
import { describeRowHolders } from '../core/rowHolder';
import { readRegistryRowHolders } from './registryRowHolders';

// How long a lock change that waits for rows (waitingForLocks) waits for one before giving up.
const LOCK_TIMEOUT = '5s';
/**
 * How long its transaction may run: well past LOCK_TIMEOUT, so that a wait that gives up answers
 * LOCK_CONFLICT, rather than Prisma ending the transaction (by default after 5 s) while it waits,
 * an internal error once the row is let go.
 */
const TRANSACTION_TIMEOUT_MS = 15_000;

/**
 * Runs `work` in a transaction whose row locks wait up to LOCK_TIMEOUT (then LOCK_CONFLICT,
 * naming the sessions that held the registry rows of `tables`), for the lock changes that wait
 * rather than fail when someone else holds a row.
 */
export function waitingForLocks<T>(
  db: Queryable,
  tables: string[],
  work: (tx: Queryable) => Promise<T>,
): Promise<T> {
  return inTransaction(
    db,
    async (tx) => {
      await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`);
      return work(tx);
    },
    { timeout: TRANSACTION_TIMEOUT_MS },
  ).catch(async (error: unknown) => {
    if (postgresErrorCode(error) !== '55P03') throw error;
    const holders = await readRegistryRowHolders(db, tables);
    if (holders.length === 0) {
      throw new LockError('LOCK_CONFLICT', 'The lock is busy (a save is running); try again.');
    }
    throw new LockError(
      'LOCK_CONFLICT',
      `The lock is busy: its rows are ${describeRowHolders(holders)}; try again.`,
      { rowHolders: holders },
    );
  });
}
