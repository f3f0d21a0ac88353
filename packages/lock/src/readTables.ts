import type { PrismaClient, Queryable, TableStatus } from '@tablelock/db';
import { type EditBlock, editBlockOf, policyBlockOf } from './editBlock';
import { wantsTable } from './lineForTable';
import { readWaiters, type Waiter } from './lockQueue';
import { TABLE_LOCK } from './registryTables';
import { policyOf, type TablePolicy } from './tablePolicies';
import type { Freeze, TableRules } from './tableRules';
import { readTakeOverSettings, type TakeOverSettings } from './takeOverSettings';

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
  /**
   * Why nobody can start editing it now (its editor aside), or null. Those in line for it are
   * not counted here: whether they are ahead depends on who asks (see `inLine`).
   */
  editBlock: EditBlock | null;
  /** While `editing`: when its holder last showed activity. */
  lastActiveAt: Date | null;
  /** The admins' policy for it. */
  policy: TablePolicy;
  /** A freeze in force, if any. */
  frozen: Freeze | null;
  /** Its policy and freeze, as lock changes read them. */
  rules: TableRules;
  /** The take-over rule (the same for every table). */
  takeOver: Pick<TakeOverSettings, 'rule' | 'idleMinutes'>;
  /** Who waits in line to edit it, first in line first. */
  waiters: Waiter[];
  /** Everyone in line who goes before anyone who starts editing it (see wantsTable). */
  inLine: Waiter[];
}

/** All registered master tables, by name. */
export async function readTables(prisma: PrismaClient): Promise<TableInfo[]> {
  const [rows, line, stored, takeOver] = await Promise.all([
    prisma.tableLock.findMany({ orderBy: { tableName: 'asc' } }),
    readWaiters(prisma),
    prisma.tablePolicy.findMany(),
    readTakeOverSettings(prisma),
  ]);
  const byName = new Map(rows.map((row) => [row.tableName, row]));
  const policies = new Map(stored.map((policy) => [policy.tableName, policy]));
  const editorOf = (name: string) => byName.get(name)?.editor ?? null;
  const now = new Date();
  return rows.map((row) => {
    const policy = policyOf(row.tableName, policies.get(row.tableName));
    const frozen = freezeOf(row, now);
    const rules = { ...policy, frozen };
    return {
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
      policy,
      frozen,
      rules,
      takeOver: { rule: takeOver.rule, idleMinutes: takeOver.idleMinutes },
      editBlock:
        policyBlockOf({ tableName: row.tableName, rules }) ??
        editBlockOf(
          row,
          row.references.flatMap((name) => byName.get(name) ?? []),
          editorOf,
        ),
      waiters: line.filter((waiter) => waiter.tables.includes(row.tableName)),
      inLine: line.filter((waiter) => wantsTable(waiter, row.tableName, row.references)),
    };
  });
}

type StoredRow = Awaited<ReturnType<PrismaClient['tableLock']['findMany']>>[number];

/** The freeze in force as readers are shown it: one past its end time is over already. */
function freezeOf(row: StoredRow, now: Date): Freeze | null {
  if (!row.frozenAt || !row.frozenBy || !row.frozenReason) return null;
  if (row.frozenUntil && row.frozenUntil <= now) return null;
  return { reason: row.frozenReason, by: row.frozenBy, at: row.frozenAt, until: row.frozenUntil };
}

/** Whether `tableName` is a master table of the registry (so lockable, and editable). */
export async function isRegisteredTable(db: Queryable, tableName: string): Promise<boolean> {
  const [registered] = await db.$queryRaw<unknown[]>`
    SELECT 1 FROM ${TABLE_LOCK} WHERE table_name = ${tableName}`;
  return registered !== undefined;
}
