import { inTransaction, type Queryable, recordHistoryPurge } from '@tablelock/db';

/**
 * Deletes at most `batchSize` security events older than `retentionDays` (database clock) and
 * records it (the record itself is new, so it stays), in one short transaction. Returns how
 * many it deleted; fewer than `batchSize` means none are left.
 */
export function purgeSecurityEvents(
  db: Queryable,
  { retentionDays, batchSize }: { retentionDays: number; batchSize: number },
): Promise<number> {
  return inTransaction(db, async (tx) => {
    const deleted = await tx.$executeRaw`
      DELETE FROM tablelock.security_event WHERE id IN (
        SELECT id FROM tablelock.security_event
        WHERE at < now() - make_interval(days => ${retentionDays}::int)
        LIMIT ${batchSize})`;
    if (deleted > 0) {
      await recordHistoryPurge(tx, {
        subject: 'security events',
        retentionDays,
        deleted: { securityEvents: deleted },
      });
    }
    return deleted;
  });
}
