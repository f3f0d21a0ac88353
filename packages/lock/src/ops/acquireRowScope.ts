import { isPoolClient, type Queryable } from '@tablelock/db';
import { inSpan } from '@tablelock/tracing';
import { editBlockOf, policyBlockOf } from '../core/editBlock';
import type { LockAnswer } from '../core/lockAnswer';
import { LockError } from '../core/lockError';
import { describeLockRefusal, type LockRefusal } from '../core/lockRefusal';
import type { LockRow } from '../core/lockRow';
import { queueBlockOf } from '../core/planLockChange';
import { cappedLease, DEFAULT_TABLE_RULES, type EditorRights } from '../core/tableRules';
import { recordDeniedAttempt } from '../sql/deniedAttemptLog';
import { isRegisteredTable } from '../sql/isRegisteredTable';
import { readLockScope } from '../sql/lockScope';
import { notAMasterTable } from '../sql/notAMasterTable';
import {
  canonicalScopeValues,
  type ExpectedRow,
  insertRowScope,
  insertRowScopeIfUnchanged,
  lockScopeRows,
  readRowScopeGround,
} from '../sql/rowScopeSql';
import { waitingForLocks } from '../sql/waitingForLocks';
import type { LockGrant } from './lockGrant';
import { inRowScopeTurn } from './rowScopeTurns';

/** How many values of the row-lock column one scope may name. */
export const MAX_SCOPE_ROWS = 1_000;

export interface AcquireRowScope {
  tableName: string;
  /** Values of the table's row-lock column: the rows edited are those having one of them. */
  rows: string[];
  editor: string;
  actor?: string;
  leaseSeconds: number | null;
  rights?: EditorRights;
  /** Where the master tables are: a table without a declared row-lock column needs its key. */
  masterSchema: string;
  /** The caller's place in line: only those before it go first. */
  waiterId?: string;
  /** Record a refusal in the history (default): not for a waiter's attempts. */
  recordDenial?: boolean;
}

/** What one attempt at a scope came to: a grant, a refusal, or rows found changed or held. */
type Attempt =
  | { granted: LockGrant & { rows: string[] } }
  | { refused: LockRefusal }
  | { contended: true };

/**
 * Starts editing the rows of a table whose row-lock column has one of `rows` (a row scope, see
 * docs/decisions/0021), beside other editors of other values: a fencing token of its own, a
 * lease, and the table's FK targets locked for it, shared. Refused at once, naming who is in the
 * way, when the table is edited whole or locked as a reference, a scope holds any of the values,
 * an FK target is edited, or someone waits in line first for what it wants (the whole table,
 * one of its values, or its table as their FK target).
 *
 * Like a whole-table acquisition it reads, decides and writes with one conditional write, in
 * turns with this process's other changes of the table's scopes (inRowScopeTurn); only when that
 * write finds the rows changed or held (another process) does it lock them and decide again.
 */
export function acquireRowScope(
  db: Queryable,
  request: AcquireRowScope,
): Promise<LockAnswer<LockGrant & { rows: string[] }>> {
  return inSpan(
    'tablelock.row_scope.acquire',
    { 'tablelock.table': request.tableName },
    async () => {
      scopeRows(request.rows);
      const actor = request.actor ?? request.editor;
      const ground = await scopeGroundOf(db, request);
      let attempt: Attempt = { contended: true };
      if (isPoolClient(db)) {
        attempt = await inRowScopeTurn(db, request.tableName, () =>
          attemptRowScope(db, request, ground, false),
        );
      }
      if ('contended' in attempt) {
        attempt = await waitingForLocks(db, [request.tableName], (tx) =>
          attemptRowScope(tx, request, ground, true),
        );
      }
      if ('granted' in attempt) return { granted: attempt.granted };
      if ('contended' in attempt)
        throw new Error('A scope attempt on locked rows is never contended.');
      if (request.recordDenial !== false) {
        await recordDeniedAttempt(db, {
          action: 'denied',
          tableName: request.tableName,
          actor,
          editor: request.editor,
          reason: describeLockRefusal(request.tableName, attempt.refused),
        });
      }
      return { refused: attempt.refused, tableName: request.tableName };
    },
  );
}

/**
 * Reads the scope's registry rows, decides, and writes the scope. `lockFirst`: in the caller's
 * transaction, having locked the rows first (locked first, read after, in a statement of its
 * own: a read in the locking statement would see the scopes as they were before it waited, not
 * those just taken). Else a plain read, and a conditional write on the versions read.
 */
async function attemptRowScope(
  db: Queryable,
  request: AcquireRowScope,
  ground: { column: string; rows: string[] },
  lockFirst: boolean,
): Promise<Attempt> {
  const { column, rows } = ground;
  if (lockFirst) await lockScopeRows(db, request.tableName);
  const scope = await readLockScope(db, request.tableName, [], false, {
    editor: request.editor,
    rows,
    ...(request.waiterId ? { waiterId: request.waiterId } : {}),
  });
  const main = scope.get(request.tableName);
  if (!main) throw await notAMasterTable(db, request.tableName);
  const fkRows = main.references
    .filter((name) => name !== request.tableName)
    .flatMap((name) => scope.get(name) ?? [])
    .filter((row) => row.rules?.takesPartInLocking !== false);
  const block =
    policyBlockOf(main, request.rights) ??
    editBlockOf(main, fkRows, (holder) => scope.get(holder)?.editor ?? null, rows) ??
    queueBlockOf([main, ...fkRows]);
  if (block) return { refused: block };
  const leaseSeconds = cappedLease(request.leaseSeconds, main.rules ?? DEFAULT_TABLE_RULES);
  const newScope = {
    tableName: request.tableName,
    editor: request.editor,
    rows,
    leaseSeconds,
    ground: { masterSchema: request.masterSchema, column },
  };
  const fkTargets = fkRows.map((row) => row.tableName);
  const event = {
    action: 'acquire' as const,
    tableName: request.tableName,
    actor: request.actor ?? request.editor,
    editor: request.editor,
    details: { rows },
  };
  const written = lockFirst
    ? await insertRowScope(db, newScope, fkTargets, event)
    : await insertRowScopeIfUnchanged(
        db,
        newScope,
        fkTargets,
        event,
        rowsTouched(scope, request.tableName),
      );
  if (written === 'contended') return { contended: true };
  return {
    granted: {
      tableName: request.tableName,
      editor: request.editor,
      fencingToken: written.fencing_token,
      leaseExpiresAt: written.lease_expires_at,
      lastActiveAt: written.last_active_at,
      idleLimitSeconds: null,
      lockedTables: fkRows.map((row: LockRow) => row.tableName).sort(),
      rows,
    },
  };
}

/**
 * The rows read that taking a scope of `tableName` touches, at their versions (the rows
 * lockScopeRows locks): the table, its FK targets, and every table it holds locked.
 */
function rowsTouched(scope: ReadonlyMap<string, LockRow>, tableName: string): ExpectedRow[] {
  const main = scope.get(tableName);
  return [...scope.values()]
    .filter(
      (row) =>
        row.tableName === tableName ||
        main?.references.includes(row.tableName) ||
        row.lockedBy.includes(tableName),
    )
    .map((row) => ({ tableName: row.tableName, version: row.version }));
}

/** Refuses anything but 1–MAX_SCOPE_ROWS values asked for, none empty. */
function scopeRows(asked: string[]): void {
  const rows = new Set(asked);
  if (rows.size === 0 || rows.size > MAX_SCOPE_ROWS || rows.has('')) {
    throw new LockError(
      'BAD_USER_INPUT',
      `rows names from 1 to ${MAX_SCOPE_ROWS} values of the table's row-lock column, none empty.`,
    );
  }
}

/**
 * The table's row-lock column, and the scope's values as the write guard compares them, once
 * each and sorted. TABLE_NOT_FOUND for no master table; BAD_USER_INPUT when it has no row-lock
 * column, no write guard to keep saves inside a scope, changes that need approval, or a value
 * is none of the column's type.
 */
export async function scopeGroundOf(
  db: Queryable,
  request: Pick<AcquireRowScope, 'tableName' | 'masterSchema' | 'rows'>,
): Promise<{ column: string; rows: string[] }> {
  const { tableName, masterSchema } = request;
  const ground = await readRowScopeGround(db, masterSchema, tableName);
  if (ground.column === null) {
    if (!(await isRegisteredTable(db, tableName))) throw await notAMasterTable(db, tableName);
    throw new LockError(
      'BAD_USER_INPUT',
      `${tableName} has no row-lock column: its primary key has several columns. An admin declares one in its policy (rowLockColumn).`,
    );
  }
  if (!ground.guarded) {
    throw new LockError(
      'BAD_USER_INPUT',
      `${tableName} has no write guard (its policy's writeGuard is OFF, or its triggers are not installed): the guard is what keeps a row scope's saves inside it. Hold the whole table, or have an admin set its write guard to RECORD or ENFORCE.`,
    );
  }
  if (ground.needsApproval) {
    throw new LockError(
      'BAD_USER_INPUT',
      `Changes to ${tableName} need approval: a change request holds the whole table, so it has no row scopes. Hold the whole table.`,
    );
  }
  const canonical =
    ground.type === null
      ? { values: [], invalid: request.rows }
      : await canonicalScopeValues(db, { type: ground.type, values: request.rows });
  if (canonical.invalid.length > 0) {
    throw new LockError(
      'BAD_USER_INPUT',
      `rows names values of ${tableName}.${ground.column}; ${canonical.invalid.slice(0, 5).join(', ')} ${canonical.invalid.length === 1 ? 'is' : 'are'} not.`,
    );
  }
  return { column: ground.column, rows: canonical.values };
}
