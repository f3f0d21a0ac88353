import { Prisma, type TransactionClient } from '@tablelock/db';
import { postgresErrorOf } from '../postgresError';
import type { SaveResult } from '../saveRows';
import { columnRef } from '../sqlFragments';
import { type MasterTable, requireColumn, type TableColumn } from '../tableColumns';

/** The request's rows, one `stored.row` each, numbered `stored.n` from 1 in their order. */
export const storedRows = Prisma.sql`
  tablelock.change_request AS request,
  jsonb_array_elements(request.rows) WITH ORDINALITY AS stored(row, n)`;

const ofRequest = (id: string, action: 'insert' | 'update' | 'delete') =>
  Prisma.sql`request.id = ${id}::bigint AND stored.row->>'action' = ${action}`;

/** `t`, the table's row of `stored.row`'s key. */
export const storedKeyMatch = (table: MasterTable) =>
  Prisma.join(
    table.primaryKey.map(
      (column) =>
        Prisma.sql`t.${columnRef(column)} =
          (stored.row->'key'->>${column.name})::${Prisma.raw(column.dataType)}`,
    ),
    ' AND ',
  );

const versionMatch = Prisma.sql`t.xmin = coalesce(stored.row->>'version', '0')::xid`;

const storedValue = (column: TableColumn) =>
  Prisma.sql`(stored.row->'newValues'->>${column.name})::${Prisma.raw(column.dataType)}`;

/**
 * The names of the columns a row sets, sorted: its shape, by which one statement writes all the
 * rows alike. An import's new row leaves out its empty cells of columns with a default (as
 * changesOf does), so that the default applies.
 */
const shapeOf = (defaulted: string[]) => Prisma.sql`
  ARRAY(SELECT given.name FROM jsonb_each(coalesce(stored.row->'newValues', '{}'))
                               AS given(name, value)
        WHERE NOT (jsonb_typeof(given.value) = 'null' AND given.name = ANY(${defaulted}::text[]))
        ORDER BY given.name COLLATE "C")`;

/**
 * Writes a change request's rows as stored in the database, set-based and without reading them
 * out: a statement for its deletes, then one per shape of its updates and of its inserts (the
 * order of applyChangesInBulk, and so of the row-by-row save), each row checked against the
 * version it was made on. Answers the counts when every row wrote exactly as asked; null, with
 * nothing written, as soon as one did not (changed since, refused, two changes of one row): the
 * caller then writes the rows one by one, which names each row's error.
 */
export async function writeStoredRows(
  tx: TransactionClient,
  table: MasterTable,
  requestId: string,
  fromImport: boolean,
): Promise<SaveResult | null> {
  await tx.$executeRawUnsafe('SAVEPOINT stored_rows');
  try {
    const written = await writeAll(tx, table, requestId, fromImport);
    if (written) return written;
  } catch (error) {
    if (!postgresErrorOf(error)) throw error;
  }
  await tx.$executeRawUnsafe('ROLLBACK TO SAVEPOINT stored_rows');
  return null;
}

async function writeAll(
  tx: TransactionClient,
  table: MasterTable,
  id: string,
  fromImport: boolean,
): Promise<SaveResult | null> {
  const target = Prisma.raw(table.qualifiedName);
  const defaulted = fromImport
    ? table.columns.filter((column) => column.hasDefault).map((column) => column.name)
    : [];
  const shapes = await tx.$queryRaw<{ action: string; names: string[]; rows: number }[]>`
    SELECT stored.row->>'action' AS action,
           CASE stored.row->>'action' WHEN 'delete' THEN ARRAY[]::text[]
                                      WHEN 'insert' THEN ${shapeOf(defaulted)}
                                      ELSE ${shapeOf([])} END AS names,
           count(*)::int AS rows
    FROM ${storedRows} WHERE request.id = ${id}::bigint
    GROUP BY 1, 2 ORDER BY min(stored.n)`;
  const counted = (action: string) =>
    shapes.filter((shape) => shape.action === action).reduce((sum, shape) => sum + shape.rows, 0);
  // An insert of only defaults has no column to take from the rows: rare, so row by row.
  if (shapes.some((shape) => shape.action === 'insert' && shape.names.length === 0)) return null;
  const deletes = counted('delete');
  if (deletes > 0) {
    const deleted = await tx.$executeRaw`
      DELETE FROM ${target} AS t USING ${storedRows}
      WHERE ${ofRequest(id, 'delete')} AND ${storedKeyMatch(table)} AND ${versionMatch}`;
    if (deleted !== deletes) return null;
  }
  let updated = 0;
  for (const shape of shapes.filter((s) => s.action === 'update' && s.names.length > 0)) {
    const columns = shape.names.map((name) => requireColumn(table, name));
    const count = await tx.$executeRaw`
      UPDATE ${target} AS t
      SET ${Prisma.join(columns.map((column) => Prisma.sql`${columnRef(column)} = ${storedValue(column)}`))}
      FROM ${storedRows}
      WHERE ${ofRequest(id, 'update')} AND ${shapeOf([])} = ${shape.names}::text[]
        AND ${storedKeyMatch(table)} AND ${versionMatch}`;
    // Fewer rows: a conflict, or two changes of one row.
    if (count !== shape.rows) return null;
    updated += count;
  }
  let inserted = 0;
  for (const shape of shapes.filter((s) => s.action === 'insert')) {
    const columns = shape.names.map((name) => requireColumn(table, name));
    const count = await tx.$executeRaw`
      INSERT INTO ${target} (${Prisma.join(columns.map(columnRef))})
      SELECT ${Prisma.join(columns.map(storedValue))}
      FROM ${storedRows}
      WHERE ${ofRequest(id, 'insert')} AND ${shapeOf(defaulted)} = ${shape.names}::text[]
      ORDER BY stored.n`;
    if (count !== shape.rows) return null;
    inserted += count;
  }
  return {
    saved: true,
    inserted,
    updated,
    deleted: deletes,
    rowErrors: [],
    updatedVersions: [],
  };
}
