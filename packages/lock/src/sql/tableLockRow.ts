import { Prisma } from '@tablelock/db';
import type { RowScopeHolder } from '../core/lockRow';
import type { Freeze } from '../core/tableRules';
import type { TableStatus } from '../core/tableStatus';
import { scopeHolds } from './idleLimitSql';
import { CHANGE_REQUEST, ROW_LOCK } from './registryTables';
import { FREEZE_IN_FORCE, type FreezeColumns, freezeOf } from './tableRulesSql';

/**
 * Whether the row's lock waits with a pending change request. Only a lock without a lease can
 * (the request's), so the lookup is made for those alone.
 */
const CARRIES_CHANGE_REQUEST = Prisma.sql`(table_lock.lease_expires_at IS NULL
  AND table_lock.fencing_token IS NOT NULL
  AND EXISTS (SELECT 1 FROM ${CHANGE_REQUEST} AS r
              WHERE r.table_name = table_lock.table_name AND r.state = 'pending'
                AND r.effective_at IS NULL))`;

/**
 * The table's live row scopes, oldest first, as `[{editor, rows}]`: an index lookup, and on most
 * tables an empty one. A scope whose lease ran out, or whose holder was idle too long, holds
 * nothing; the sweeper deletes it.
 */
const ROW_SCOPES = Prisma.sql`(SELECT coalesce(jsonb_agg(jsonb_build_object('editor', r.editor, 'rows', r.rows,
      'token', r.fencing_token::text, 'acquiredAt', r.acquired_at,
      'leaseExpiresAt', r.lease_expires_at, 'lastActiveAt', r.last_active_at)
    ORDER BY r.fencing_token), '[]'::jsonb)
  FROM ${ROW_LOCK} AS r WHERE r.table_name = table_lock.table_name AND ${scopeHolds('r')})`;

/**
 * The columns of a `table_lock` row as every reader of the registry selects them, with what is
 * judged on the database clock when the row is read: whether the lease has run out, how long
 * its holder has been idle, the freeze in force; and whether it waits with a change request.
 */
export const TABLE_LOCK_COLUMNS = Prisma.sql`table_name, status::text AS status, editor,
  locked_by, "references", version, fencing_token::text AS fencing_token, updated_at,
  acquired_at, lease_expires_at, last_active_at,
  coalesce(lease_expires_at <= now(), false) AS lease_expired,
  extract(epoch FROM now() - last_active_at)::float8 AS idle_seconds,
  ${FREEZE_IN_FORCE} AS freeze, ${CARRIES_CHANGE_REQUEST} AS carries_change_request,
  ${ROW_SCOPES} AS row_scopes`;

/** A `table_lock` row as TABLE_LOCK_COLUMNS selects it. */
export interface TableLockRow {
  table_name: string;
  status: TableStatus;
  editor: string | null;
  locked_by: string[];
  references: string[];
  version: number;
  fencing_token: string | null;
  updated_at: Date;
  acquired_at: Date | null;
  lease_expires_at: Date | null;
  last_active_at: Date | null;
  lease_expired: boolean;
  idle_seconds: number | null;
  freeze: FreezeColumns | null;
  carries_change_request: boolean;
  row_scopes: (RowScopeHolder & {
    token: string;
    acquiredAt: string;
    leaseExpiresAt: string | null;
    lastActiveAt: string;
  })[];
}

/** One master table's registry row, as the lock changes and the read models use it. */
export interface TableLock {
  tableName: string;
  status: TableStatus;
  editor: string | null;
  /** Holder tables of a shared FK lock, sorted. */
  lockedBy: string[];
  /** FK targets discovered from the catalog, sorted. */
  references: string[];
  version: number;
  /** The current acquisition's fencing token (a bigint, as text), while `editing`. */
  fencingToken: string | null;
  updatedAt: Date;
  /** While `editing`: since when, until when unless renewed (null: no expiry), last activity. */
  acquiredAt: Date | null;
  leaseExpiresAt: Date | null;
  lastActiveAt: Date | null;
  /** Whether the lease had run out when the row was read (database clock). */
  leaseExpired: boolean;
  /** While `editing`: for how long its holder had shown no activity when read (database clock). */
  idleSeconds: number | null;
  /** The freeze in force when the row was read (database clock). */
  frozen: Freeze | null;
  /** Its lock waits with a pending change request, which ends it by its decision. */
  carriesChangeRequest: boolean;
  /** Its live row scopes, oldest first (decision 0021). */
  rowScopes: RowScope[];
}

/** A row scope as readers see it: who edits which values, since when, until when. */
export interface RowScope extends RowScopeHolder {
  /** Its fencing token. */
  token: string;
  acquiredAt: Date;
  /** Null: no expiry. */
  leaseExpiresAt: Date | null;
  lastActiveAt: Date;
}

export function tableLockOf(row: TableLockRow): TableLock {
  return {
    tableName: row.table_name,
    status: row.status,
    editor: row.editor,
    lockedBy: row.locked_by,
    references: row.references,
    version: row.version,
    fencingToken: row.fencing_token,
    updatedAt: row.updated_at,
    acquiredAt: row.acquired_at,
    leaseExpiresAt: row.lease_expires_at,
    lastActiveAt: row.last_active_at,
    leaseExpired: row.lease_expired,
    idleSeconds: row.idle_seconds,
    frozen: freezeOf(row.freeze),
    carriesChangeRequest: row.carries_change_request,
    rowScopes: row.row_scopes.map((scope) => ({
      editor: scope.editor,
      rows: scope.rows,
      token: scope.token,
      acquiredAt: new Date(scope.acquiredAt),
      leaseExpiresAt: scope.leaseExpiresAt ? new Date(scope.leaseExpiresAt) : null,
      lastActiveAt: new Date(scope.lastActiveAt),
    })),
  };
}
