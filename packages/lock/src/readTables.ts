import type { PrismaClient, Queryable, TableStatus } from '@tablelock/db';
import { type EditBlock, editBlockOf } from './editBlock';
import { TABLE_LOCK } from './registryTables';

/** A master table as users see it: its lock state and its place in the FK graph. */
export interface TableInfo {
  name: string;
  status: TableStatus;
  /** The editor; for a `locked` table, the editor of its first holder. */
  editor: string | null;
  /** Holder tables of the shared FK lock, sorted. */
  lockedBy: string[];
  references: string[];
  referencedBy: string[];
  version: number;
  updatedAt: Date;
  /** While `editing`: since when, and until when unless renewed (null: no expiry). */
  acquiredAt: Date | null;
  leaseExpiresAt: Date | null;
  /** Why nobody can start editing it now (its editor aside), or null. */
  editBlock: EditBlock | null;
}

/** All registered master tables, by name. */
export async function readTables(prisma: PrismaClient): Promise<TableInfo[]> {
  const rows = await prisma.tableLock.findMany({ orderBy: { tableName: 'asc' } });
  const byName = new Map(rows.map((row) => [row.tableName, row]));
  const editorOf = (name: string) => byName.get(name)?.editor ?? null;
  return rows.map((row) => ({
    name: row.tableName,
    status: row.status,
    editor: row.editor ?? editorOf(row.lockedBy[0] ?? ''),
    lockedBy: row.lockedBy,
    references: row.references,
    referencedBy: rows
      .filter((other) => other.references.includes(row.tableName))
      .map((other) => other.tableName),
    version: row.version,
    updatedAt: row.updatedAt,
    acquiredAt: row.acquiredAt,
    leaseExpiresAt: row.leaseExpiresAt,
    editBlock: editBlockOf(
      row,
      row.references.flatMap((name) => byName.get(name) ?? []),
      editorOf,
    ),
  }));
}

/** Whether `tableName` is a master table of the registry (so lockable, and editable). */
export async function isRegisteredTable(db: Queryable, tableName: string): Promise<boolean> {
  const [registered] = await db.$queryRaw<unknown[]>`
    SELECT 1 FROM ${TABLE_LOCK} WHERE table_name = ${tableName}`;
  return registered !== undefined;
}
