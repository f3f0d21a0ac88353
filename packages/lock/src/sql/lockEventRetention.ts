import { inTransaction, type Queryable, recordHistoryPurge } from '@tablelock/db';
import { LOCK_EVENT } from './registryTables';

/**
 * Deletes at most `batchSize` lock events older than `retentionDays` (database clock) and
 * records it, in one short transaction: the lock path only inserts new events, so it never
 * waits on a purge. Returns how many it deleted; fewer than `batchSize` means none are left.
 */
export function purgeLockEvents(
  db: Queryable,
  { retentionDays, batchSize }: { retentionDays: number; batchSize: number },
): Promise<number> {
  return inTransaction(db, async (tx) => {
    const deleted = await tx.$executeRaw`
      DELETE FROM ${LOCK_EVENT} WHERE id IN (
        SELECT id FROM ${LOCK_EVENT}
        WHERE at < now() - make_interval(days => ${retentionDays}::int)
        LIMIT ${batchSize})`;
    if (deleted > 0) {
      await recordHistoryPurge(tx, {
        subject: 'lock history',
        retentionDays,
        deleted: { lockEvents: deleted },
      });
    }
    return deleted;
  });
}
