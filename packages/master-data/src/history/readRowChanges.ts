import { Prisma, type Queryable } from '@tablelock/db';
import { MasterDataError } from '../masterDataError';
import type { RowValues } from '../readRows';
import { readMasterTable } from '../tableColumns';
import { CHANGE_SET_COLUMNS, type ChangeSetRow, changeSetRecord } from './changeSetColumns';
import { decodeHistoryCursor, encodeHistoryCursor, pageSize } from './historyCursor';
import type { ChangeSetRecord, RowChangeRecord, RowOperation } from './historyRecords';
import { historyValues } from './historyValues';

export interface RowChangePage {
  rows: RowChangeRecord[];
  endCursor: string | null;
}

export const MAX_ROW_CHANGES_PER_PAGE = 500;

interface RowChangeRow extends ChangeSetRow {
  rowChangeId: string;
  key: unknown;
  operation: RowOperation;
  oldValues: unknown;
  newValues: unknown;
}

const ROW_CHANGE_COLUMNS = Prisma.sql`
  rc.id::text AS "rowChangeId", rc.row_key AS "key", rc.operation,
  rc.old_values AS "oldValues", rc.new_values AS "newValues"`;

/** The rows of one change, in the order they were written, a page at a time. */
export async function readChangeRows(
  db: Queryable,
  change: ChangeSetRecord,
  page: { after?: string | null; first: number },
): Promise<RowChangePage> {
  const first = pageSize(page.first, MAX_ROW_CHANGES_PER_PAGE);
  const scope = `change:${change.id}`;
  const after = page.after ? decodeHistoryCursor(page.after, scope) : null;
  const rows = await db.$queryRaw<RowChangeRow[]>`
    SELECT ${CHANGE_SET_COLUMNS}, ${ROW_CHANGE_COLUMNS}
    FROM tablelock.row_changes_of_change_set(${change.id}::bigint, ${after ?? '0'}::bigint,
                                             ${first + 1}::int) AS rc
    JOIN tablelock.change_set AS cs ON cs.id = ${change.id}::bigint
    ORDER BY rc.id
    LIMIT ${first + 1}`;
  return pageOf(rows, first, scope);
}

/** One row's changes, newest first, a page at a time. `key`: its primary key as `rows` gives it. */
export async function readRowHistory(
  db: Queryable,
  schema: string,
  tableName: string,
  key: Record<string, unknown>,
  page: { after?: string | null; first: number },
): Promise<RowChangePage> {
  const first = pageSize(page.first, MAX_ROW_CHANGES_PER_PAGE);
  const rowKey = historyValues(key) ?? {};
  const scope = `row:${tableName}:${JSON.stringify(Object.entries(rowKey).sort())}`;
  const after = page.after ? decodeHistoryCursor(page.after, scope) : null;
  const table = await readMasterTable(db, schema, tableName);
  const keyColumns = table.primaryKey.map((column) => column.name);
  if (
    keyColumns.length === 0 ||
    Object.keys(rowKey).length !== keyColumns.length ||
    keyColumns.some((column) => !(column in rowKey))
  ) {
    throw new MasterDataError(
      'BAD_USER_INPUT',
      `A row key of ${tableName} has exactly the columns ${keyColumns.join(', ')}.`,
    );
  }
  // The page's changes first, then the values of those in batches (decision 0022): a batch
  // row's values cost a read of its batch's whole rows.
  const rows = await db.$queryRaw<RowChangeRow[]>`
    SELECT ${CHANGE_SET_COLUMNS}, ${ROW_CHANGE_COLUMNS}
    FROM (SELECT r.id, r.change_set_id, r.row_key, r.operation,
                 CASE WHEN r.batch_id IS NULL THEN r.old_values ELSE i.old_values END AS old_values,
                 CASE WHEN r.batch_id IS NULL THEN r.new_values ELSE i.new_values END AS new_values
          FROM (SELECT * FROM tablelock.row_change_refs_of_row(${tableName}, ${JSON.stringify(rowKey)}::jsonb) AS r
                ${after ? Prisma.sql`WHERE r.id < ${after}::bigint` : Prisma.empty}
                ORDER BY r.id DESC
                LIMIT ${first + 1}) AS r
          LEFT JOIN LATERAL tablelock.row_change_batch_images(r.batch_id, r.position_in_batch) AS i
            ON r.batch_id IS NOT NULL) AS rc
    JOIN tablelock.change_set AS cs ON cs.id = rc.change_set_id
    ORDER BY rc.id DESC`;
  return pageOf(rows, first, scope);
}

function pageOf(rows: RowChangeRow[], first: number, scope: string): RowChangePage {
  const records = rows.slice(0, first).map(rowChangeRecord);
  const last = records.at(-1);
  return {
    rows: records,
    endCursor: rows.length > first && last ? encodeHistoryCursor(scope, last.id) : null,
  };
}

function rowChangeRecord(row: RowChangeRow): RowChangeRecord {
  const { rowChangeId, key, operation, oldValues, newValues, ...changeSet } = row;
  return {
    id: rowChangeId,
    key: historyValues(key) as RowValues,
    operation,
    oldValues: historyValues(oldValues),
    newValues: historyValues(newValues),
    changeSet: changeSetRecord(changeSet),
  };
}
