import type { PrismaClient, Queryable, TableStatus } from '@tablelock/db';
import { type EditBlock, editBlockOf, policyBlockOf } from './editBlock';
import { wantsTable } from './lineForTable';
import { readWaiters, type Waiter } from './lockQueue';
import { TABLE_LOCK } from './registryTables';
import { DEFAULT_TABLE_RULES, type TableRules } from './tableRules';
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
  /** The admins' rules for it: its policy, and a freeze in force. */
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
  const [rows, line, policies, takeOver] = await Promise.all([
    prisma.tableLock.findMany({ orderBy: { tableName: 'asc' } }),
    readWaiters(prisma),
    prisma.tablePolicy.findMany(),
    readTakeOverSettings(prisma),
  ]);
  const byName = new Map(rows.map((row) => [row.tableName, row]));
  const policyOf = new Map(policies.map((policy) => [policy.tableName, policy]));
  const editorOf = (name: string) => byName.get(name)?.editor ?? null;
  const now = new Date();
  return rows.map((row) => {
    const rules = rulesOf(row, policyOf.get(row.tableName), now);
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
type StoredPolicy = Awaited<ReturnType<PrismaClient['tablePolicy']['findMany']>>[number];

/** A table's rules as readers are shown them: a freeze past its end time is over already. */
function rulesOf(row: StoredRow, policy: StoredPolicy | undefined, now: Date): TableRules {
  const frozen =
    row.frozenAt && row.frozenBy && row.frozenReason && !(row.frozenUntil && row.frozenUntil <= now)
      ? { reason: row.frozenReason, by: row.frozenBy, at: row.frozenAt, until: row.frozenUntil }
      : null;
  if (!policy) return { ...DEFAULT_TABLE_RULES, frozen };
  return {
    readOnly: policy.readOnly,
    editRoles: policy.editRoles,
    editGroups: policy.editGroups,
    takesPartInLocking: policy.takesPartInLocking,
    maxLeaseSeconds: policy.maxLeaseSeconds,
    frozen,
  };
}

/** Whether `tableName` is a master table of the registry (so lockable, and editable). */
export async function isRegisteredTable(db: Queryable, tableName: string): Promise<boolean> {
  const [registered] = await db.$queryRaw<unknown[]>`
    SELECT 1 FROM ${TABLE_LOCK} WHERE table_name = ${tableName}`;
  return registered !== undefined;
}
