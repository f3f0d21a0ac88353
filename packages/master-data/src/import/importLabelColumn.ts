import type { Queryable } from '@tablelock/db';
import { labelColumnOf } from '../reference/labelColumn';
import { readMasterTable } from '../tableColumns';

/**
 * The column that names a row of `tableName` beside its key, as value help shows it: a dry
 * run's rows are listed by both, so that a reviewer sees which row each one is.
 */
export async function importLabelColumn(
  db: Queryable,
  schema: string,
  tableName: string,
): Promise<string | null> {
  const table = await readMasterTable(db, schema, tableName);
  const key = table.primaryKey[0]?.name ?? '';
  return (await labelColumnOf(db, table, key))?.name ?? null;
}
