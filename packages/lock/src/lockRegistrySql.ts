import { Prisma, type PrismaClient, type TableStatus } from '@tablelock/db';
import type { LockRow } from './lockRow';

type LockScopeRow = Pick<LockRow, 'status' | 'editor' | 'references' | 'version'> & {
  table_name: string;
  locked_by: string[];
};

/**
 * The registry rows a lock change on `tableName` may touch: the table, the FK tables the
 * caller named, the table's discovered FK targets, and every table it holds locked. A plain
 * read in one statement: one consistent snapshot, no lock taken, none waited for.
 */
export function lockScopeQuery(tableName: string, namedFkTables: string[]): Prisma.Sql {
  return Prisma.sql`
    SELECT table_name, status::text AS status, editor, locked_by, "references", version
    FROM tablelock.table_lock
    WHERE table_name = ANY(${[tableName, ...namedFkTables]}::text[])
       OR table_name IN (SELECT unnest("references") FROM tablelock.table_lock WHERE table_name = ${tableName})
       OR ${tableName} = ANY(locked_by)`;
}

export async function readLockScope(
  prisma: PrismaClient,
  tableName: string,
  namedFkTables: string[],
): Promise<Map<string, LockRow>> {
  const rows = await prisma.$queryRaw<LockScopeRow[]>(lockScopeQuery(tableName, namedFkTables));
  return new Map(
    rows.map((row) => [
      row.table_name,
      {
        tableName: row.table_name,
        status: row.status,
        editor: row.editor,
        lockedBy: row.locked_by,
        references: row.references,
        version: row.version,
      },
    ]),
  );
}

export interface CompareAndSetResult {
  written: boolean;
  /** Status of every expected row as the statement found it (before its own write). */
  statuses: Map<string, TableStatus>;
}

/**
 * The conditional write, in one statement and so all or nothing: row-locks every `expected`
 * row in name order, skipping rows another transaction holds (it never waits, so it cannot
 * deadlock), and only if it got all of them, each still at the version it was read at, writes
 * `changes` with new versions. Answers one row: `granted`, `written` (rows changed) and
 * `statuses` (each expected row's status as the statement found it, before its own write).
 */
export function compareAndSetQuery(expected: LockRow[], changes: LockRow[]): Prisma.Sql {
  const expectedJson = JSON.stringify(
    expected.map((row) => ({ table_name: row.tableName, version: row.version })),
  );
  const changesJson = JSON.stringify(
    changes.map((row) => ({
      table_name: row.tableName,
      status: row.status,
      editor: row.editor,
      locked_by: row.lockedBy,
    })),
  );
  return Prisma.sql`
    WITH expected AS (
      SELECT * FROM jsonb_to_recordset(${expectedJson}::jsonb) AS e(table_name text, version int)
    ), claimed AS (
      SELECT t.table_name FROM tablelock.table_lock AS t
      JOIN expected AS e ON e.table_name = t.table_name AND e.version = t.version
      ORDER BY t.table_name
      FOR UPDATE OF t SKIP LOCKED
    ), granted AS (
      SELECT count(*) = ${expected.length} AS ok FROM claimed
    ), written AS (
      UPDATE tablelock.table_lock AS t
      SET status = u.status, editor = u.editor, locked_by = u.locked_by,
          version = t.version + 1, updated_at = now()
      FROM jsonb_to_recordset(${changesJson}::jsonb)
             AS u(table_name text, status tablelock."TableStatus", editor text, locked_by text[]),
           granted
      WHERE granted.ok AND t.table_name = u.table_name
      RETURNING t.table_name
    )
    SELECT (SELECT ok FROM granted) AS granted,
           (SELECT count(*) FROM written)::int AS written,
           (SELECT coalesce(jsonb_object_agg(t.table_name, t.status), '{}')
            FROM tablelock.table_lock AS t JOIN expected AS e ON e.table_name = t.table_name
           ) AS statuses`;
}

export async function compareAndSetLockRows(
  prisma: PrismaClient,
  expected: LockRow[],
  changes: LockRow[],
): Promise<CompareAndSetResult> {
  const [result] = await prisma.$queryRaw<
    { granted: boolean; written: number; statuses: Record<string, TableStatus> }[]
  >(compareAndSetQuery(expected, changes));
  if (!result) throw new Error('The lock write returned no row.');
  if (result.granted && result.written !== changes.length) {
    throw new Error(`The lock write changed ${result.written} rows instead of ${changes.length}.`);
  }
  return { written: result.granted, statuses: new Map(Object.entries(result.statuses)) };
}
