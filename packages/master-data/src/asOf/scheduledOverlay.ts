import { Prisma } from '@tablelock/db';
import type { MasterTable } from '../tableColumns';
import { overlayRowId, type RowOverlay } from './rowOverlay';

/**
 * The table as it will be at `asOf`: every `scheduled` request of the table (an edition's
 * while the edition is scheduled) whose time is at or before `asOf`, applied in the order the
 * scheduler runs them (effectiveAt, then id), each request's rows in their diff's order. What
 * a row becomes is decided in SQL from the requests' diffs (`change_request.rows`), never by
 * reading the table: the last insert or delete of a row decides whether it exists, and each
 * column takes its last value written since. A new row whose key the database fills is a row of
 * its own. A request the scheduler would refuse (a row changed since, an update of a deleted
 * row) is shown as if it applied, except that an update of a row that no longer exists is not.
 */
export function scheduledOverlay(table: MasterTable, asOf: Date): RowOverlay {
  const key = Prisma.sql`c.item -> 'key'`;
  const ctes = Prisma.sql`
    scheduled_change AS (
      SELECT r.id AS request_id, r.effective_at, c.ord, c.item ->> 'action' AS action,
             ${key} AS key,
             coalesce(${overlayRowId(table, key)}, 'new:' || r.id || ':' || c.ord) AS row_id,
             CASE WHEN jsonb_typeof(c.item -> 'newValues') = 'object'
                  THEN c.item -> 'newValues' ELSE '{}'::jsonb END AS new_values,
             CASE WHEN jsonb_typeof(c.item -> 'oldValues') = 'object'
                  THEN c.item -> 'oldValues' ELSE '{}'::jsonb END AS old_values
      FROM tablelock.change_request AS r
      LEFT JOIN tablelock.edition AS e ON e.id = r.edition_id
      CROSS JOIN LATERAL jsonb_array_elements(r.rows) WITH ORDINALITY AS c(item, ord)
      WHERE r.table_name = ${table.name} AND r.state = 'scheduled'
        AND r.effective_at <= ${asOf} AND (r.edition_id IS NULL OR e.state = 'scheduled')),
    scheduled_step AS (
      SELECT *, row_number() OVER (PARTITION BY row_id ORDER BY effective_at, request_id, ord)
               AS step
      FROM scheduled_change),
    scheduled_row AS (
      SELECT row_id, (array_agg(key ORDER BY step))[1] AS key,
             (array_agg(action ORDER BY step DESC))[1] <> 'delete' AS present,
             coalesce((array_agg(action ORDER BY step DESC)
                        FILTER (WHERE action IN ('insert', 'delete')))[1] = 'insert', false) AS fresh,
             coalesce(max(step) FILTER (WHERE action IN ('insert', 'delete')), 0) AS reset_step
      FROM scheduled_step GROUP BY row_id),
    overlay AS (
      SELECT r.row_id, r.key, r.present, r.fresh,
             coalesce((SELECT jsonb_object_agg(last.column_name, last.value)
                       FROM (SELECT DISTINCT ON (cell.key) cell.key AS column_name, cell.value
                             FROM scheduled_step AS s CROSS JOIN LATERAL jsonb_each(s.new_values) AS cell
                             WHERE s.row_id = r.row_id AND s.step >= r.reset_step
                             ORDER BY cell.key, s.step DESC) AS last), '{}'::jsonb) AS cells
      FROM scheduled_row AS r),
    scheduled_cell AS (
      SELECT s.row_id, s.request_id, s.effective_at, s.step, cell.key AS column_name,
             cell.value #>> '{}' AS new_value,
             CASE WHEN lag(s.step) OVER w IS NULL THEN s.old_values ->> cell.key
                  ELSE lag(cell.value #>> '{}') OVER w END AS old_value
      FROM scheduled_step AS s CROSS JOIN LATERAL jsonb_each(s.new_values) AS cell
      WINDOW w AS (PARTITION BY s.row_id, cell.key ORDER BY s.step))`;
  const cellChanges = Prisma.sql`(
    SELECT jsonb_agg(jsonb_build_object('column', sc.column_name,
             'changeRequestId', sc.request_id::text, 'effectiveAt', sc.effective_at,
             'oldValue', sc.old_value, 'newValue', sc.new_value)
           ORDER BY sc.step, sc.column_name)
    FROM scheduled_cell AS sc WHERE sc.row_id = page_source."__tablelock_row")`;
  return { ctes, cellChanges };
}
