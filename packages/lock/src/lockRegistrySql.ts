import type { TransactionClient } from '@tablelock/db';
import type { LockRow } from './lockRow';

type RawLockRow = Pick<LockRow, 'status' | 'editor'> & {
  table_name: string;
  locked_by: string[];
  references: string[];
};

const toLockRow = (row: RawLockRow): LockRow => ({
  tableName: row.table_name,
  status: row.status,
  editor: row.editor,
  lockedBy: row.locked_by,
  references: row.references,
});

/**
 * Names of the registry rows a lock change on `tableName` may touch: the table, the FK tables
 * the caller named, the table's discovered FK targets, and every table it holds locked.
 * A plain read: it takes no lock and waits for none.
 */
export async function findLockScope(
  tx: TransactionClient,
  tableName: string,
  namedFkTables: string[],
): Promise<string[]> {
  const rows = await tx.$queryRaw<{ table_name: string }[]>`
    SELECT table_name FROM tablelock.table_lock
    WHERE table_name = ANY(${[tableName, ...namedFkTables]}::text[])
       OR table_name IN (SELECT unnest("references") FROM tablelock.table_lock WHERE table_name = ${tableName})
       OR ${tableName} = ANY(locked_by)
    ORDER BY table_name`;
  return rows.map((row) => row.table_name);
}

/**
 * Row-locks the named registry rows in one canonical order (by name), skipping any row another
 * transaction holds: it never waits, so it cannot deadlock. Returns the rows it locked.
 */
export async function lockRowsWithoutWaiting(
  tx: TransactionClient,
  names: string[],
): Promise<Map<string, LockRow>> {
  const rows = await tx.$queryRaw<RawLockRow[]>`
    SELECT table_name, status::text AS status, editor, locked_by, "references"
    FROM tablelock.table_lock
    WHERE table_name = ANY(${names}::text[])
    ORDER BY table_name
    FOR UPDATE SKIP LOCKED`;
  return new Map(rows.map((row) => [row.table_name, toLockRow(row)]));
}

/** The rows as they are now, without locking. */
export async function readLockRows(
  tx: TransactionClient,
  names: string[],
): Promise<Map<string, LockRow>> {
  const rows = await tx.$queryRaw<RawLockRow[]>`
    SELECT table_name, status::text AS status, editor, locked_by, "references"
    FROM tablelock.table_lock
    WHERE table_name = ANY(${names}::text[])`;
  return new Map(rows.map((row) => [row.table_name, toLockRow(row)]));
}

/** Writes the planned rows in one statement; each changed row gets a new version. */
export async function writeLockRows(tx: TransactionClient, changes: LockRow[]): Promise<void> {
  const payload = JSON.stringify(
    changes.map((row) => ({
      table_name: row.tableName,
      status: row.status,
      editor: row.editor,
      locked_by: row.lockedBy,
    })),
  );
  const written = await tx.$executeRaw`
    UPDATE tablelock.table_lock AS t
    SET status = u.status, editor = u.editor, locked_by = u.locked_by,
        version = t.version + 1, updated_at = now()
    FROM jsonb_to_recordset(${payload}::jsonb)
      AS u(table_name text, status tablelock."TableStatus", editor text, locked_by text[])
    WHERE t.table_name = u.table_name`;
  if (written !== changes.length) {
    throw new Error(`Lock write changed ${written} rows instead of ${changes.length}.`);
  }
}
