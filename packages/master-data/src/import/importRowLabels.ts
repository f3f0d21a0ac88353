import { Prisma, type Queryable } from '@tablelock/db';
import { labelColumnOf } from '../reference/labelColumn';
import { columnRef } from '../sqlFragments';
import { readMasterTable } from '../tableColumns';
import type { ImportRow } from './importReport';

/** A dry run's row with its label (null: the table has no label column, or the row no label). */
export type LabelledImportRow = ImportRow & { label: string | null };

/**
 * A page of a dry run's rows with the label that names each (the column value help shows
 * beside keys): the file's own where it has the column, else the table's row of that key (one
 * query for the page, by its key's index), so that a reviewer sees which row each one is.
 */
export async function labelImportRows(
  db: Queryable,
  schema: string,
  tableName: string,
  rows: ImportRow[],
): Promise<LabelledImportRow[]> {
  const table = await readMasterTable(db, schema, tableName);
  const [key, ...moreKey] = table.primaryKey;
  const label = key ? await labelColumnOf(db, table, key.name) : null;
  if (!key || !label) return rows.map((row) => ({ ...row, label: null }));
  const keyOf = (row: ImportRow) => row.key?.[key.name] ?? null;
  // A composite key's rows are named by the file alone.
  const missing =
    moreKey.length > 0
      ? []
      : [...new Set(rows.flatMap((row) => (label.name in row.values ? [] : (keyOf(row) ?? []))))];
  const stored =
    missing.length === 0
      ? []
      : await db.$queryRaw<{ key: string; label: string | null }[]>`
          SELECT ${columnRef(key)}::text AS key, ${columnRef(label)}::text AS label
          FROM ${Prisma.raw(table.qualifiedName)}
          WHERE ${columnRef(key)} = ANY(${missing}::${Prisma.raw(key.dataType)}[])`;
  const labels = new Map(stored.map((row) => [row.key, row.label]));
  return rows.map((row) => ({
    ...row,
    label:
      label.name in row.values
        ? (row.values[label.name] ?? null)
        : (labels.get(keyOf(row) ?? '') ?? null),
  }));
}
