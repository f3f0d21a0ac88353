import type { Queryable } from '@tablelock/db';
import { TABLE_LOCK } from './registryTables';

/** Who edits each of `tables` now (those being edited). */
export async function readEditors(db: Queryable, tables: string[]): Promise<Map<string, string>> {
  const rows = await db.$queryRaw<{ table_name: string; editor: string }[]>`
    SELECT table_name, editor FROM ${TABLE_LOCK}
    WHERE table_name = ANY(${tables}::text[]) AND editor IS NOT NULL`;
  return new Map(rows.map((row) => [row.table_name, row.editor]));
}
