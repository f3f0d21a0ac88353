import type { Queryable } from '@tablelock/db';
import type { RowHolder } from '../core/rowHolder';

/**
 * The sessions holding a row lock on the registry rows of `tables` (function
 * tablelock.registry_row_holders), oldest transaction first; only looked up once a lock change
 * found its rows held, to say by whom.
 */
export async function readRegistryRowHolders(
  db: Queryable,
  tables: string[],
): Promise<RowHolder[]> {
  const rows = await db.$queryRaw<
    { pid: number; db_role: string; application_name: string | null; since: Date | null }[]
  >`SELECT pid, db_role, application_name, since
    FROM tablelock.registry_row_holders(${tables}::text[])`;
  return rows.map((row) => ({
    pid: row.pid,
    dbRole: row.db_role,
    applicationName: row.application_name,
    since: row.since?.toISOString() ?? null,
  }));
}
