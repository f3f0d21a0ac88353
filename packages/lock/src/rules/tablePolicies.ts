import type { Queryable, TransactionClient, WriteGuard } from '@tablelock/db';
import { LockError } from '../core/lockError';
import type { Role } from '../core/role';
import { DEFAULT_TABLE_RULES, type TableRules } from '../core/tableRules';
import { notAMasterTable } from '../sql/notAMasterTable';
import { ROW_LOCK, TABLE_LOCK } from '../sql/registryTables';

/** Four eyes: who approves a table's changes, when its policy asks for approval. */
export interface ApprovalPolicy {
  /** Every change is a change request that someone other than its author approves. */
  changesNeedApproval: boolean;
  /** Who may approve besides admins: these roles or members of these groups; both empty: every editor. */
  approverRoles: Role[];
  approverGroups: string[];
}

const NO_APPROVAL: ApprovalPolicy = {
  changesNeedApproval: false,
  approverRoles: [],
  approverGroups: [],
};

/** One master table's policy as admins see and set it (the defaults for a table without one). */
export interface TablePolicy extends Omit<TableRules, 'frozen'>, ApprovalPolicy {
  tableName: string;
  /** The write guard's triggers on the table; null: no policy, WRITE_GUARD_DEFAULT holds. */
  writeGuard: WriteGuard | null;
  /** The text column value help shows beside the table's keys; null: its first text column. */
  labelColumn: string | null;
  /** The column whose values row scopes name; null: the table's single-column primary key. */
  rowLockColumn: string | null;
  updatedAt: Date | null;
  updatedBy: string | null;
}

/** What an admin changes: only the settings given. */
export type TablePolicyChange = Partial<
  Omit<TableRules, 'frozen'> &
    ApprovalPolicy & {
      writeGuard: WriteGuard;
      labelColumn: string | null;
      rowLockColumn: string | null;
    }
>;

const MAX_LEASE_BOUNDS = { min: 15, max: 86_400 };
const MAX_GROUPS = 50;

/** Every registered table's policy, by table name. */
export async function readTablePolicies(db: Queryable): Promise<TablePolicy[]> {
  const [registered, policies] = await Promise.all([
    db.tableLock.findMany({ select: { tableName: true }, orderBy: { tableName: 'asc' } }),
    db.tablePolicy.findMany(),
  ]);
  const byName = new Map(policies.map((policy) => [policy.tableName, policy]));
  return registered.map(({ tableName }) => policyOf(tableName, byName.get(tableName)));
}

/**
 * Changes a table's policy (in the caller's transaction, with its audit record) and bumps the
 * table's lock version, so that an acquisition planned on the old policy fails its conditional
 * write and decides again.
 */
export async function setTablePolicy(
  tx: TransactionClient,
  request: {
    tableName: string;
    change: TablePolicyChange;
    actor: string;
    /** The guard a new policy starts with unless the change sets one (WRITE_GUARD_DEFAULT). */
    writeGuardDefault?: WriteGuard;
  },
): Promise<TablePolicy> {
  const change = validPolicyChange(request.change);
  const keptByScopes = whatRowScopesKeep(change);
  if (keptByScopes) await requireNoRowScopes(tx, request.tableName, keptByScopes);
  const bumped = await tx.$executeRaw`
    UPDATE ${TABLE_LOCK} SET version = version + 1, updated_at = now()
    WHERE table_name = ${request.tableName}`;
  if (bumped === 0) throw await notAMasterTable(tx, request.tableName);
  const stored = await tx.tablePolicy.upsert({
    where: { tableName: request.tableName },
    create: {
      tableName: request.tableName,
      ...(request.writeGuardDefault ? { writeGuard: request.writeGuardDefault } : {}),
      ...change,
      updatedBy: request.actor,
    },
    update: { ...change, updatedBy: request.actor, updatedAt: new Date() },
  });
  return policyOf(request.tableName, stored);
}

/**
 * What of `change` row scopes forbid while held: the column they name, the write guard that
 * keeps their saves inside them (docs/decisions/0021), and approval (a change request holds the
 * whole table). Undefined when the change touches none of these.
 */
function whatRowScopesKeep(change: TablePolicyChange): string | undefined {
  if (change.rowLockColumn !== undefined) return 'row-lock column cannot change';
  if (change.writeGuard === 'OFF') return 'write guard cannot be OFF';
  if (change.changesNeedApproval === true) return 'changes cannot start needing approval';
  return undefined;
}

/** Refuses the change while row scopes of the table are held (its row locked first, so that no scope is taken meanwhile). */
async function requireNoRowScopes(
  tx: TransactionClient,
  tableName: string,
  kept: string,
): Promise<void> {
  const [held] = await tx.$queryRaw<{ editors: string[] | null }[]>`
    SELECT (SELECT array_agg(DISTINCT r.editor ORDER BY r.editor) FROM ${ROW_LOCK} AS r
            WHERE r.table_name = t.table_name) AS editors
    FROM ${TABLE_LOCK} AS t WHERE t.table_name = ${tableName} FOR UPDATE OF t`;
  if (held?.editors) {
    throw new LockError(
      'LOCK_CONFLICT',
      `${tableName}'s ${kept} while row scopes of it are held (by ${held.editors.join(', ')}).`,
    );
  }
}

/** A table's policy as stored, or the defaults when it has none. */
export function policyOf(
  tableName: string,
  stored:
    | (Omit<TableRules, 'frozen'> &
        ApprovalPolicy & {
          writeGuard: WriteGuard;
          labelColumn: string | null;
          rowLockColumn: string | null;
          updatedAt: Date;
          updatedBy: string | null;
        })
    | undefined,
): TablePolicy {
  if (!stored)
    return {
      ...withoutFreeze(DEFAULT_TABLE_RULES),
      ...NO_APPROVAL,
      tableName,
      writeGuard: null,
      labelColumn: null,
      rowLockColumn: null,
      updatedAt: null,
      updatedBy: null,
    };
  return {
    tableName,
    readOnly: stored.readOnly,
    editRoles: stored.editRoles,
    editGroups: stored.editGroups,
    takesPartInLocking: stored.takesPartInLocking,
    maxLeaseSeconds: stored.maxLeaseSeconds,
    writeGuard: stored.writeGuard,
    labelColumn: stored.labelColumn,
    rowLockColumn: stored.rowLockColumn,
    changesNeedApproval: stored.changesNeedApproval,
    approverRoles: stored.approverRoles,
    approverGroups: stored.approverGroups,
    updatedAt: stored.updatedAt,
    updatedBy: stored.updatedBy,
  };
}

function withoutFreeze({ frozen: _frozen, ...rules }: TableRules): Omit<TableRules, 'frozen'> {
  return rules;
}

function validPolicyChange(change: TablePolicyChange): TablePolicyChange {
  const max = change.maxLeaseSeconds;
  if (
    max !== undefined &&
    max !== null &&
    (!Number.isInteger(max) || max < MAX_LEASE_BOUNDS.min || max > MAX_LEASE_BOUNDS.max)
  ) {
    throw new LockError(
      'BAD_USER_INPUT',
      `maxLeaseSeconds must be a whole number from ${MAX_LEASE_BOUNDS.min} to ${MAX_LEASE_BOUNDS.max}, or null.`,
    );
  }
  if (change.approverRoles?.includes('viewer')) {
    throw new LockError(
      'BAD_USER_INPUT',
      'approverRoles may name editor or admin: viewers never approve.',
    );
  }
  return {
    ...change,
    ...groupsOf('editGroups', change.editGroups),
    ...groupsOf('approverGroups', change.approverGroups),
    ...rolesOf('editRoles', change.editRoles),
    ...rolesOf('approverRoles', change.approverRoles),
  };
}

function groupsOf(field: 'editGroups' | 'approverGroups', given: string[] | undefined) {
  if (given === undefined) return {};
  const groups = [...new Set(given.map((group) => group.trim()))];
  if (groups.some((group) => group === '') || groups.length > MAX_GROUPS) {
    throw new LockError(
      'BAD_USER_INPUT',
      `${field} must be up to ${MAX_GROUPS} group names, none blank.`,
    );
  }
  return { [field]: groups.sort() };
}

const rolesOf = (field: 'editRoles' | 'approverRoles', roles: Role[] | undefined) =>
  roles === undefined ? {} : { [field]: [...new Set(roles)].sort() };
