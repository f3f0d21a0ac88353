import { Prisma } from '@tablelock/db';
import type { MasterTable } from '../tableColumns';
import type { RowOverlay } from './rowOverlay';

/**
 * The table as it was at `asOf`, rebuilt from the row history (decision 0022) by undoing what
 * was recorded after it: a row's first change after `asOf` says whether it existed then (not if
 * that change inserted it), and each column's value then is the old value of the first change
 * after `asOf` that names it (a delete names every column), else today's. Reads the change sets
 * after `asOf` by their time index and their rows by change set; the table itself only for the
 * page. Writes the write guard did not record (a table whose guard records no history) are not
 * undone.
 */
export function historyOverlay(table: MasterTable, asOf: Date): RowOverlay {
  const ctes = Prisma.sql`
    history_change AS (
      SELECT rc.id, rc.row_key, rc.operation,
             CASE WHEN jsonb_typeof(rc.old_values) = 'object'
                  THEN rc.old_values ELSE '{}'::jsonb END AS old_values
      FROM tablelock.change_set AS cs
      JOIN tablelock.recorded_row_change AS rc ON rc.change_set_id = cs.id
      WHERE cs.table_name = ${table.name} AND cs.at > ${asOf} AND rc.table_name = ${table.name}),
    history_row AS (
      SELECT row_key, (array_agg(operation ORDER BY id))[1] <> 'insert' AS present,
             bool_or(operation = 'delete') AS fresh
      FROM history_change GROUP BY row_key),
    overlay AS (
      SELECT r.row_key::text AS row_id, r.row_key AS key, r.present, r.fresh,
             coalesce((SELECT jsonb_object_agg(first.column_name, first.value)
                       FROM (SELECT DISTINCT ON (cell.key) cell.key AS column_name, cell.value
                             FROM history_change AS h CROSS JOIN LATERAL jsonb_each(h.old_values) AS cell
                             WHERE h.row_key = r.row_key
                             ORDER BY cell.key, h.id) AS first), '{}'::jsonb) AS cells
      FROM history_row AS r)`;
  return { ctes, cellChanges: null };
}
