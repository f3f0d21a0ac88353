import { Prisma, type Queryable } from '@tablelock/db';
import { isRegisteredTable } from '@tablelock/lock';
import { MasterDataError } from '../masterDataError';
import { CHANGE_SET_COLUMNS, type ChangeSetRow, changeSetRecord } from './changeSetColumns';
import { decodeHistoryCursor, encodeHistoryCursor, pageSize } from './historyCursor';
import type { ChangeKind, ChangeSetRecord } from './historyRecords';

export interface ChangeSetFilter {
  /** The actor, or the database role of a write without one. */
  user?: string | null;
  kinds?: ChangeKind[] | null;
  from?: Date | null;
  to?: Date | null;
}

export interface ChangeSetPage {
  changes: ChangeSetRecord[];
  endCursor: string | null;
}

export const MAX_CHANGES_PER_PAGE = 100;

/** A table's changes, newest first, a page at a time. */
export async function readTableChanges(
  db: Queryable,
  tableName: string,
  page: { filter?: ChangeSetFilter | null; after?: string | null; first: number },
): Promise<ChangeSetPage> {
  const first = pageSize(page.first, MAX_CHANGES_PER_PAGE);
  const scope = `changes:${tableName}`;
  const after = page.after ? decodeHistoryCursor(page.after, scope) : null;
  if (!(await isRegisteredTable(db, tableName))) {
    throw new MasterDataError('TABLE_NOT_FOUND', `No master table is named ${tableName}.`);
  }
  const { user, kinds, from, to } = page.filter ?? {};
  const conditions = [
    Prisma.sql`cs.table_name = ${tableName}`,
    after ? Prisma.sql`cs.id < ${after}::bigint` : null,
    user ? Prisma.sql`coalesce(cs.actor, cs.db_role) = ${user}` : null,
    kinds?.length ? Prisma.sql`cs.kind::text = ANY(${kinds}::text[])` : null,
    from ? Prisma.sql`cs.at >= ${from}` : null,
    to ? Prisma.sql`cs.at < ${to}` : null,
  ].filter((condition) => condition !== null);
  const rows = await db.$queryRaw<ChangeSetRow[]>`
    SELECT ${CHANGE_SET_COLUMNS}
    FROM tablelock.change_set AS cs
    WHERE ${Prisma.join(conditions, ' AND ')}
    ORDER BY cs.id DESC
    LIMIT ${first + 1}`;
  const changes = rows.slice(0, first).map(changeSetRecord);
  const last = changes.at(-1);
  return {
    changes,
    endCursor: rows.length > first && last ? encodeHistoryCursor(scope, last.id) : null,
  };
}

/** One change of a table; NOT_FOUND if the table has none with that id. */
export async function readTableChange(
  db: Queryable,
  tableName: string,
  id: string,
): Promise<ChangeSetRecord> {
  const [row] = /^[1-9]\d{0,18}$/.test(id)
    ? await db.$queryRaw<ChangeSetRow[]>`
        SELECT ${CHANGE_SET_COLUMNS} FROM tablelock.change_set AS cs
        WHERE cs.id = ${id}::bigint AND cs.table_name = ${tableName}`
    : [];
  if (!row) throw new MasterDataError('NOT_FOUND', `${tableName} has no change with the id ${id}.`);
  return changeSetRecord(row);
}
