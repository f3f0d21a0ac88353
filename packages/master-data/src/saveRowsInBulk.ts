import { Prisma, type TransactionClient } from '@tablelock/db';
import { postgresErrorOf } from './postgresError';
import type { RowValues } from './readRows';
import type { RowChanges, SaveResult } from './rowChanges';
import { columnRef } from './sqlFragments';
import { type MasterTable, requireColumn, type TableColumn } from './tableColumns';

/** Changes that set the same columns: one statement writes them all. */
interface Group<T> {
  columns: TableColumn[];
  changes: { index: number; change: T }[];
}

function groupByColumns<T extends { values: RowValues }>(
  table: MasterTable,
  changes: readonly T[],
): Group<T>[] {
  const groups = new Map<string, Group<T>>();
  for (const [index, change] of changes.entries()) {
    const names = Object.keys(change.values).sort();
    const id = JSON.stringify(names);
    const group = groups.get(id) ?? {
      columns: names.map((name) => requireColumn(table, name)),
      changes: [],
    };
    group.changes.push({ index, change });
    groups.set(id, group);
  }
  return [...groups.values()];
}

/** One array parameter of text per column, read back as that column's type. */
const textArray = (values: (string | null | undefined)[]) =>
  Prisma.sql`${values.map((value) => value ?? null)}::text[]`;

const cast = (column: TableColumn, source: Prisma.Sql) =>
  Prisma.sql`${source}::${Prisma.raw(column.dataType)}`;

const sourceColumn = (alias: string, position: number) => Prisma.raw(`${alias}.c${position}`);

/** `t.pk1 = v.c0::type AND …`: the key columns come first in the unnested arrays. */
const keyMatch = (table: MasterTable) =>
  Prisma.join(
    table.primaryKey.map(
      (column, position) =>
        Prisma.sql`t.${columnRef(column)} = ${cast(column, sourceColumn('v', position))}`,
    ),
    ' AND ',
  );

const sourceNames = (count: number) =>
  Prisma.raw(Array.from({ length: count }, (_, position) => `c${position}`).join(', '));

async function deleteAll(
  tx: TransactionClient,
  table: MasterTable,
  deletes: NonNullable<RowChanges['deletes']>,
): Promise<boolean> {
  if (deletes.length === 0) return true;
  const keys = table.primaryKey.map((column) => textArray(deletes.map((d) => d.key[column.name])));
  const versions = textArray(deletes.map((d) => d.version));
  const width = table.primaryKey.length;
  const deleted = await tx.$executeRaw`
    DELETE FROM ${Prisma.raw(table.qualifiedName)} AS t
    USING unnest(${Prisma.join([...keys, versions])}) AS v(${sourceNames(width + 1)})
    WHERE ${keyMatch(table)} AND t.xmin = ${sourceColumn('v', width)}::xid`;
  return deleted === deletes.length;
}

async function updateGroup(
  tx: TransactionClient,
  table: MasterTable,
  { columns, changes }: Group<NonNullable<RowChanges['updates']>[number]>,
): Promise<{ index: number; version: string }[] | null> {
  const width = table.primaryKey.length;
  const arrays = [
    ...table.primaryKey.map((column) =>
      textArray(changes.map(({ change }) => change.key[column.name])),
    ),
    textArray(changes.map(({ change }) => change.version)),
    textArray(changes.map(({ index }) => String(index))),
    ...columns.map((column) => textArray(changes.map(({ change }) => change.values[column.name]))),
  ];
  const assignments = columns.map(
    (column, position) =>
      Prisma.sql`${columnRef(column)} = ${cast(column, sourceColumn('v', width + 2 + position))}`,
  );
  const updated = await tx.$queryRaw<{ index: string; version: string }[]>`
    UPDATE ${Prisma.raw(table.qualifiedName)} AS t SET ${Prisma.join(assignments)}
    FROM unnest(${Prisma.join(arrays)}) AS v(${sourceNames(arrays.length)})
    WHERE ${keyMatch(table)} AND t.xmin = ${sourceColumn('v', width)}::xid
    RETURNING ${sourceColumn('v', width + 1)} AS index, t.xmin::text AS version`;
  // Fewer rows: a conflict; as many but not each once: two changes of one row.
  const indexes = new Set(updated.map((row) => row.index));
  if (updated.length !== changes.length || indexes.size !== changes.length) return null;
  return updated.map((row) => ({ index: Number(row.index), version: row.version }));
}

async function insertGroup(
  tx: TransactionClient,
  table: MasterTable,
  { columns, changes }: Group<NonNullable<RowChanges['inserts']>[number]>,
): Promise<boolean> {
  const arrays = columns.map((column) =>
    textArray(changes.map(({ change }) => change.values[column.name])),
  );
  const inserted = await tx.$executeRaw`
    INSERT INTO ${Prisma.raw(table.qualifiedName)} (${Prisma.join(columns.map(columnRef))})
    SELECT ${Prisma.join(columns.map((column, position) => cast(column, sourceColumn('v', position))))}
    FROM unnest(${Prisma.join(arrays)}) WITH ORDINALITY AS v(${sourceNames(arrays.length)}, position)
    ORDER BY v.position`;
  return inserted === changes.length;
}

/**
 * A save's changes as a few set-based statements, in the order the row-by-row path keeps
 * (deletes, then updates and inserts, each grouped by the columns they set), every value an
 * element of one array parameter per column: 1,000 rows in a handful of round trips, where a
 * statement per row costs three (savepoint, statement, release) and fires the write guard's
 * statement triggers a thousand times. Returns the result when every change applied exactly
 * as asked; null as soon as a statement fails or misses a row (a conflict, a refused value):
 * the caller rolls back and writes the changes one by one, to name each row's error.
 */
export async function applyChangesInBulk(
  tx: TransactionClient,
  table: MasterTable,
  changes: RowChanges,
): Promise<SaveResult | null> {
  const inserts = changes.inserts ?? [];
  const updates = (changes.updates ?? []).filter((change) => Object.keys(change.values).length > 0);
  const deletes = changes.deletes ?? [];
  // An insert of only defaults has no column to put in an array: rare, so row by row.
  if (inserts.some((change) => Object.keys(change.values).length === 0)) return null;
  try {
    if (!(await deleteAll(tx, table, deletes))) return null;
    const updatedVersions: SaveResult['updatedVersions'] = [];
    for (const group of groupByColumns(table, updates)) {
      const versions = await updateGroup(tx, table, group);
      if (!versions) return null;
      updatedVersions.push(...versions);
    }
    for (const group of groupByColumns(table, inserts)) {
      if (!(await insertGroup(tx, table, group))) return null;
    }
    return {
      saved: true,
      inserted: inserts.length,
      updated: updates.length,
      deleted: deletes.length,
      rowErrors: [],
      updatedVersions: updatedVersions.sort((a, b) => a.index - b.index),
    };
  } catch (error) {
    if (postgresErrorOf(error)) return null;
    throw error;
  }
}
