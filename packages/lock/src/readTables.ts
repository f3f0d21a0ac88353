import type { PrismaClient, TableStatus } from '@tablelock/db';
import { type EditBlock, editBlockOf } from './editBlock';
import { idleLimitOf, readIdleLimits } from './idleLimitSettings';
import { wantsTable } from './lineForTable';
import { readWaiters, type Waiter } from './lockQueue';

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
  /** While `editing`: when its holder last showed activity (an acquisition, an active renewal). */
  lastActiveAt: Date | null;
  /** How long its editor may stay inactive before the lock ends (its own limit, else the global one). */
  idleLimitSeconds: number;
  /**
   * Why nobody can start editing it now (its editor aside), or null. Those in line for it are
   * not counted here: whether they are ahead depends on who asks (see `inLine`).
   */
  editBlock: EditBlock | null;
  /** Who waits in line to edit it, first in line first. */
  waiters: Waiter[];
  /** Everyone in line who goes before anyone who starts editing it (see wantsTable). */
  inLine: Waiter[];
}

/** All registered master tables, by name. */
export async function readTables(prisma: PrismaClient): Promise<TableInfo[]> {
  const [rows, line, idleLimits] = await Promise.all([
    prisma.tableLock.findMany({ orderBy: { tableName: 'asc' } }),
    readWaiters(prisma),
    readIdleLimits(prisma),
  ]);
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
    lastActiveAt: row.lastActiveAt,
    idleLimitSeconds: idleLimitOf(idleLimits, row.tableName),
    editBlock: editBlockOf(
      row,
      row.references.flatMap((name) => byName.get(name) ?? []),
      editorOf,
    ),
    waiters: line.filter((waiter) => waiter.tables.includes(row.tableName)),
    inLine: line.filter((waiter) => wantsTable(waiter, row.tableName, row.references)),
  }));
}
