import { Prisma, type PrismaClient, type Queryable } from '@tablelock/db';
import { DomainError } from '@tablelock/errors';
import { type EditBlock, editBlockOf, policyBlockOf } from '../core/editBlock';
import { wantsTable } from '../core/lineForTable';
import type { Freeze, TableRules } from '../core/tableRules';
import type { TableStatus } from '../core/tableStatus';
import type { TakeOverPolicy } from '../core/takeOverRule';
import type { Waiter } from '../core/waiter';
import { readWaiters } from '../line/lockQueue';
import { type IdleLimits, idleLimitOf, idleLimitsOf } from '../rules/idleLimitSettings';
import { readLockSettingsRow } from '../rules/lockSettingsRow';
import { policyOf, type TablePolicy } from '../rules/tablePolicies';
import { type TakeOverSettings, takeOverSettingsOf } from '../rules/takeOverSettings';
import { TABLE_LOCK } from '../sql/registryTables';
import {
  type RowScope,
  TABLE_LOCK_COLUMNS,
  type TableLock,
  type TableLockRow,
  tableLockOf,
} from '../sql/tableLockRow';

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
  /** While `editing`: for how long its holder had shown no activity when read (database clock). */
  idleSeconds: number | null;
  /** How long its editor may stay inactive before the lock ends (its own limit, else the global one). */
  idleLimitSeconds: number;
  /** The admins' policy for it. */
  policy: TablePolicy;
  /** A freeze in force, if any (its end judged on the database clock). */
  frozen: Freeze | null;
  /** Its policy and freeze, as lock changes read them. */
  rules: TableRules;
  /** The take-over rule (the same for every table). */
  takeOver: TakeOverPolicy;
  /**
   * Why nobody can start editing it now (its editor aside), or null. Those in line for it are
   * not counted here: whether they are ahead depends on who asks (see `inLine`).
   */
  editBlock: EditBlock | null;
  /** Who waits in line to edit it, first in line first. */
  waiters: Waiter[];
  /** Everyone in line who goes before anyone who starts editing it (see wantsTable). */
  inLine: Waiter[];
  /** Its lock waits with a pending change request: only an admin may take it over. */
  carriesChangeRequest: boolean;
  /**
   * Its row scopes, oldest first (docs/decisions/0021). While any is held the table shows as
   * `editing` by the oldest scope's editor, to readers that know no scopes (legacy clients).
   */
  rowLocks: RowScope[];
}

/** The most tables one page may ask for. */
export const MAX_TABLE_PAGE = 500;
/** The longest search text: table names are identifiers (63 bytes in Postgres). */
export const MAX_TABLE_SEARCH = 200;

/** A stored table policy, as policyOf reads it. */
type StoredPolicy = NonNullable<Parameters<typeof policyOf>[1]>;

/** The admins' settings that TableInfo shows: policies by name, idle limits, the take-over rule. */
interface AdminSettings {
  policies: ReadonlyMap<string, StoredPolicy>;
  idleLimits: IdleLimits;
  takeOver: TakeOverSettings;
}

/**
 * `rows` as users see them. `known` holds at least their FK targets and their holders (for
 * editBlock and the editor of a locked table), `referencing` every row that references one of
 * them, `line` everyone in line, `settings` what admins decided for them.
 */
function describeTables(
  rows: readonly TableLock[],
  known: ReadonlyMap<string, TableLock>,
  referencing: readonly Pick<TableLock, 'tableName' | 'references'>[],
  line: readonly Waiter[],
  settings: AdminSettings,
): TableInfo[] {
  const editorOf = (name: string) => known.get(name)?.editor ?? null;
  const referencedBy = new Map<string, string[]>();
  for (const other of referencing) {
    for (const target of other.references) {
      referencedBy.set(target, [...(referencedBy.get(target) ?? []), other.tableName]);
    }
  }
  const { rule, idleMinutes } = settings.takeOver;
  return rows.map((row) => {
    const policy = policyOf(row.tableName, settings.policies.get(row.tableName));
    const rules = { ...policy, frozen: row.frozen };
    const [oldestScope] = row.rowScopes;
    const editedInScopes = row.status === 'normal' && oldestScope !== undefined;
    return {
      name: row.tableName,
      status: editedInScopes ? 'editing' : row.status,
      editor: editedInScopes ? oldestScope.editor : (row.editor ?? editorOf(row.lockedBy[0] ?? '')),
      rowLocks: row.rowScopes,
      lockedBy: row.lockedBy,
      references: row.references,
      referencedBy: referencedBy.get(row.tableName) ?? [],
      version: row.version,
      updatedAt: row.updatedAt,
      acquiredAt: row.acquiredAt,
      leaseExpiresAt: row.leaseExpiresAt,
      lastActiveAt: row.lastActiveAt,
      idleLimitSeconds: idleLimitOf(settings.idleLimits, row.tableName),
      idleSeconds: row.idleSeconds,
      carriesChangeRequest: row.carriesChangeRequest,
      policy,
      frozen: row.frozen,
      rules,
      takeOver: { rule, idleMinutes },
      editBlock:
        policyBlockOf({ tableName: row.tableName, rules }) ??
        editBlockOf(
          row,
          row.references.flatMap((name) => known.get(name) ?? []),
          editorOf,
        ),
      waiters: line.filter((waiter) => waiter.tables.includes(row.tableName)),
      inLine: line.filter((waiter) => wantsTable(waiter, row.tableName, row.references)),
    };
  });
}

/**
 * What admins decided for `names` (every table when null), from one read of the settings row
 * and one of their policies: the idle limits and the take-over rule come from the same rows.
 */
async function readAdminSettings(db: Queryable, names: string[] | null): Promise<AdminSettings> {
  const [settings, stored] = await Promise.all([
    readLockSettingsRow(db),
    names === null
      ? db.tablePolicy.findMany()
      : db.tablePolicy.findMany({ where: { tableName: { in: names } } }),
  ]);
  return {
    policies: new Map(stored.map((policy) => [policy.tableName, policy])),
    idleLimits: idleLimitsOf(settings.idleLimitSeconds, stored),
    takeOver: takeOverSettingsOf(settings),
  };
}

/** All registered master tables, by name. */
export async function readTables(prisma: PrismaClient): Promise<TableInfo[]> {
  const [stored, line, settings] = await Promise.all([
    prisma.$queryRaw<
      TableLockRow[]
    >`SELECT ${TABLE_LOCK_COLUMNS} FROM ${TABLE_LOCK} ORDER BY table_name`,
    readWaiters(prisma),
    readAdminSettings(prisma, null),
  ]);
  const rows = stored.map(tableLockOf);
  const byName = new Map(rows.map((row) => [row.tableName, row]));
  return describeTables(rows, byName, rows, line, settings);
}

/**
 * `rows` (registry rows read already) as users see them: reads only what they need besides —
 * the rows of their FK targets and holders, the rows that reference them (by the GIN index on
 * `references`) and the line — so the work grows with `rows`, not with the registry.
 */
async function describeRows(db: Queryable, rows: TableLock[]): Promise<TableInfo[]> {
  if (rows.length === 0) return [];
  const names = rows.map((row) => row.tableName);
  const related = [...new Set(rows.flatMap((row) => [...row.references, ...row.lockedBy]))];
  const [known, referencing, line, settings] = await Promise.all([
    db.$queryRaw<TableLockRow[]>`
      SELECT ${TABLE_LOCK_COLUMNS} FROM ${TABLE_LOCK} WHERE table_name = ANY(${related}::text[])`,
    db.$queryRaw<Pick<TableLock, 'tableName' | 'references'>[]>`
      SELECT table_name AS "tableName", "references" FROM ${TABLE_LOCK}
      WHERE "references" && ${names}::text[] ORDER BY table_name`,
    readWaiters(db),
    readAdminSettings(db, names),
  ]);
  const byName = new Map([...known.map(tableLockOf), ...rows].map((row) => [row.tableName, row]));
  return describeTables(rows, byName, referencing, line, settings);
}

/** The tables of those names (at most MAX_TABLE_PAGE) that exist, by name. */
export async function readTablesNamed(db: Queryable, names: string[]): Promise<TableInfo[]> {
  if (names.length > MAX_TABLE_PAGE) {
    throw new DomainError('BAD_USER_INPUT', `At most ${MAX_TABLE_PAGE} names at once.`);
  }
  const rows = await db.$queryRaw<TableLockRow[]>`
    SELECT ${TABLE_LOCK_COLUMNS} FROM ${TABLE_LOCK}
    WHERE table_name = ANY(${names}::text[]) ORDER BY table_name`;
  return describeRows(db, rows.map(tableLockOf));
}

export interface TablePageRequest {
  /** A part of the name, any case; empty or absent: every table. */
  search?: string | null;
  status?: TableStatus | null;
  offset: number;
  limit: number;
}

export interface TablePage {
  /** The page's tables, by name. */
  tables: TableInfo[];
  /** How many tables match `search` and `status`. */
  total: number;
  /** How many tables match `search` in each status (the status filter aside). */
  counts: Record<TableStatus, number>;
}

/** A page request within bounds, else BAD_USER_INPUT. */
function requireTablePage({ search, offset, limit }: TablePageRequest): void {
  if (
    !Number.isInteger(offset) ||
    offset < 0 ||
    !Number.isInteger(limit) ||
    limit < 1 ||
    limit > MAX_TABLE_PAGE
  ) {
    throw new DomainError('BAD_USER_INPUT', `offset ≥ 0 and 1 ≤ limit ≤ ${MAX_TABLE_PAGE}.`);
  }
  if (search && search.length > MAX_TABLE_SEARCH) {
    throw new DomainError('BAD_USER_INPUT', `search is at most ${MAX_TABLE_SEARCH} characters.`);
  }
}

/** `search` as an ILIKE pattern matching it anywhere, its wildcards taken literally. */
function containsPattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, '\\$&')}%`;
}

/**
 * One page of the registry, by name: the tables whose name contains `search` (any case) in
 * `status`, with the totals per status computed by Postgres. Reads the page's rows and what
 * describing them needs; never every table.
 */
export async function readTablePage(db: Queryable, request: TablePageRequest): Promise<TablePage> {
  requireTablePage(request);
  const matching = request.search
    ? Prisma.sql`table_name ILIKE ${containsPattern(request.search)}`
    : Prisma.sql`true`;
  const inStatus = request.status
    ? Prisma.sql`${matching} AND status::text = ${request.status}`
    : matching;
  const [rows, perStatus] = await Promise.all([
    db.$queryRaw<TableLockRow[]>`
      SELECT ${TABLE_LOCK_COLUMNS} FROM ${TABLE_LOCK} WHERE ${inStatus}
      ORDER BY table_name LIMIT ${request.limit} OFFSET ${request.offset}`,
    db.$queryRaw<{ status: TableStatus; count: number }[]>`
      SELECT status::text AS status, count(*)::int AS count FROM ${TABLE_LOCK}
      WHERE ${matching} GROUP BY status`,
  ]);
  const counts: Record<TableStatus, number> = { normal: 0, editing: 0, locked: 0 };
  for (const { status, count } of perStatus) counts[status] = count;
  return {
    tables: await describeRows(db, rows.map(tableLockOf)),
    total: request.status ? counts[request.status] : counts.normal + counts.editing + counts.locked,
    counts,
  };
}
