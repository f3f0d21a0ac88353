import { Prisma, type Queryable } from '@tablelock/db';
import { columnRef } from '../sqlFragments';
import type { MasterTable } from '../tableColumns';
import type { ReferenceOption } from './referenceOptions';
import { readReferenceTargets } from './referenceTarget';

/** The labels of one foreign-key column's values on a page of rows. */
export interface ReferenceLabels {
  column: string;
  labels: ReferenceOption[];
}

/**
 * The label of every foreign-key value on a page: one query per referenced column, by key
 * (its index), for the page's distinct values only. A table without foreign keys costs nothing.
 */
export async function readReferenceLabels(
  db: Queryable,
  schema: string,
  table: MasterTable,
  rows: { values: Record<string, string | null> }[],
): Promise<ReferenceLabels[]> {
  if (rows.length === 0 || !table.columns.some((column) => column.references !== null)) return [];
  const targets = await readReferenceTargets(db, schema, table);
  const found = await Promise.all(
    [...targets].map(async ([column, target]): Promise<ReferenceLabels | null> => {
      if (!target.label) return null;
      const keys = [...new Set(rows.flatMap((row) => row.values[column] ?? []))];
      if (keys.length === 0) return { column, labels: [] };
      const labels = await db.$queryRaw<ReferenceOption[]>`
        SELECT ${columnRef(target.key)}::text AS key, ${columnRef(target.label)}::text AS label
        FROM ${Prisma.raw(target.table.qualifiedName)}
        WHERE ${columnRef(target.key)} = ANY(${keys}::${Prisma.raw(target.key.dataType)}[])`;
      return { column, labels };
    }),
  );
  return found.filter((entry) => entry !== null);
}
