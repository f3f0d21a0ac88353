import type { Queryable } from '@tablelock/db';
import { TABLE_LOCK } from './registryTables';

/** Whether `tableName` is a master table of the registry (so lockable, and editable). */
export async function isRegisteredTable(db: Queryable, tableName: string): Promise<boolean> {
  const [registered] = await db.$queryRaw<unknown[]>`
    SELECT 1 FROM ${TABLE_LOCK} WHERE table_name = ${tableName}`;
  return registered !== undefined;
}
