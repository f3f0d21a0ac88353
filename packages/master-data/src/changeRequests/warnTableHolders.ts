import { inTransaction, type Queryable } from '@tablelock/db';
import { recordLockEvent } from '@tablelock/lock';
import { scheduleEditor } from './scheduledWrite';

/** A holder of a table told that a scheduled request of it is due soon. */
export interface DueSoonWarning {
  changeRequestId: string;
  tableName: string;
  /** Who holds the table (whole, or a row scope of it). */
  editor: string;
  /** The holding's fencing token. */
  token: string;
  effectiveAt: Date;
}

/**
 * Tells whoever holds the table of a scheduled request due within `leadSeconds` (database
 * clock) to release it by then: a `request_due_soon` lock event per request and holding,
 * announced on the lock channel, whose `reason` is the request's time. A row scope counts
 * whatever its rows: the request is applied under the whole table's lock, which any scope
 * keeps waiting. Once only, across processes: the requests' rows are held while their holders
 * are found and told (rows another process holds are its to tell, or being applied), and a
 * holding already told is not told again. Returns the warnings given.
 */
export function warnTableHolders(db: Queryable, leadSeconds: number): Promise<DueSoonWarning[]> {
  return inTransaction(db, async (tx) => {
    const warnings = await tx.$queryRaw<DueSoonWarning[]>`
      WITH due AS (
        SELECT r.id, r.table_name, r.effective_at FROM tablelock.change_request AS r
        WHERE r.state = 'scheduled' AND r.effective_at > clock_timestamp()
          AND r.effective_at <= clock_timestamp() + make_interval(secs => ${leadSeconds}::int)
        FOR UPDATE OF r SKIP LOCKED),
      holding AS (
        SELECT d.id, d.table_name, d.effective_at, l.editor, l.fencing_token
        FROM due AS d JOIN tablelock.table_lock AS l ON l.table_name = d.table_name
        WHERE l.status = 'editing' AND l.editor NOT LIKE 'schedule:%'
        UNION ALL
        SELECT d.id, d.table_name, d.effective_at, s.editor, s.fencing_token
        FROM due AS d JOIN tablelock.row_lock AS s ON s.table_name = d.table_name)
      SELECT h.id::text AS "changeRequestId", h.table_name AS "tableName", h.editor,
             h.fencing_token::text AS token, h.effective_at AS "effectiveAt"
      FROM holding AS h
      WHERE NOT EXISTS (
        SELECT 1 FROM tablelock.lock_event AS e
        WHERE e.table_name = h.table_name AND e.action = 'request_due_soon'
          AND e.token = h.fencing_token AND e.details ->> 'changeRequestId' = h.id::text)
      ORDER BY h.effective_at, h.id, h.editor`;
    for (const warning of warnings) {
      await recordLockEvent(tx, {
        action: 'request_due_soon',
        tableName: warning.tableName,
        actor: scheduleEditor(warning.changeRequestId),
        editor: warning.editor,
        token: warning.token,
        reason: warning.effectiveAt.toISOString(),
        details: {
          changeRequestId: warning.changeRequestId,
          effectiveAt: warning.effectiveAt.toISOString(),
        },
      });
    }
    return warnings;
  });
}
