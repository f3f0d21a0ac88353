import { inTransaction, type Queryable, recordHistoryPurge } from '@tablelock/db';

export interface HistoryPurge {
  changeSets: number;
  rowChanges: number;
}

/**
 * Deletes at most `batchSize` change sets older than `retentionDays` (database clock), with
 * their row changes in both forms (decision 0022), and records it, in one transaction. Returns
 * what it deleted; fewer change sets than `batchSize` means none are left. A revert of a purged
 * change keeps its own history but no longer names it.
 */
export function purgeHistory(
  db: Queryable,
  { retentionDays, batchSize }: { retentionDays: number; batchSize: number },
): Promise<HistoryPurge> {
  return inTransaction(db, async (tx) => {
    const [purged] = await tx.$queryRaw<HistoryPurge[]>`
      WITH old AS (
        SELECT id FROM tablelock.change_set
        WHERE at < now() - make_interval(days => ${retentionDays}::int)
        LIMIT ${batchSize}
      ), unlinked AS (
        UPDATE tablelock.change_set SET reverts_change_set_id = NULL
        WHERE reverts_change_set_id IN (SELECT id FROM old) AND id NOT IN (SELECT id FROM old)
      ), rows AS (
        DELETE FROM tablelock.row_change WHERE change_set_id IN (SELECT id FROM old) RETURNING 1
      ), batches AS (
        DELETE FROM tablelock.row_change_batch WHERE change_set_id IN (SELECT id FROM old)
        RETURNING row_count
      ), events AS (
        DELETE FROM tablelock.outbox_event WHERE change_set_id IN (SELECT id FROM old)
      ), sets AS (
        DELETE FROM tablelock.change_set WHERE id IN (SELECT id FROM old) RETURNING 1
      )
      SELECT (SELECT count(*) FROM sets)::int AS "changeSets",
             ((SELECT count(*) FROM rows)
              + (SELECT coalesce(sum(row_count), 0) FROM batches))::int AS "rowChanges"`;
    const result = purged ?? { changeSets: 0, rowChanges: 0 };
    if (result.changeSets > 0) {
      await recordHistoryPurge(tx, {
        subject: 'row history',
        retentionDays,
        deleted: { ...result },
      });
    }
    return result;
  });
}
