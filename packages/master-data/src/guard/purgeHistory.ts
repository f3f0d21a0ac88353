import { inTransaction, type Queryable } from '@tablelock/db';

export interface HistoryPurge {
  changeSets: number;
  rowChanges: number;
}

/**
 * Deletes the row history older than `retentionDays` (database clock), and records the purge
 * as a security event by `system` in the same transaction. A revert of a purged change keeps
 * its own history but no longer names it.
 */
export function purgeHistory(db: Queryable, retentionDays: number): Promise<HistoryPurge> {
  return inTransaction(db, async (tx) => {
    const [purged] = await tx.$queryRaw<HistoryPurge[]>`
      WITH old AS (
        SELECT id FROM tablelock.change_set
        WHERE at < now() - make_interval(days => ${retentionDays}::int)
      ), unlinked AS (
        UPDATE tablelock.change_set SET reverts_change_set_id = NULL
        WHERE reverts_change_set_id IN (SELECT id FROM old) AND id NOT IN (SELECT id FROM old)
      ), rows AS (
        DELETE FROM tablelock.row_change WHERE change_set_id IN (SELECT id FROM old) RETURNING 1
      ), events AS (
        DELETE FROM tablelock.outbox_event WHERE change_set_id IN (SELECT id FROM old)
      ), sets AS (
        DELETE FROM tablelock.change_set WHERE id IN (SELECT id FROM old) RETURNING 1
      )
      SELECT (SELECT count(*) FROM sets)::int AS "changeSets",
             (SELECT count(*) FROM rows)::int AS "rowChanges"`;
    const result = purged ?? { changeSets: 0, rowChanges: 0 };
    if (result.changeSets > 0) {
      await tx.$executeRaw`
        INSERT INTO tablelock.security_event (action, actor, subject, details)
        VALUES ('history_purged', 'system', 'row history',
                ${JSON.stringify({ retentionDays, ...result })}::jsonb)`;
    }
    return result;
  });
}
