import { isPoolClient, type Queryable } from '@tablelock/db';
import { inSpan } from '@tablelock/tracing';
import { editBlockOf, policyBlockOf } from '../core/editBlock';
import type { LockAnswer } from '../core/lockAnswer';
import { LockError } from '../core/lockError';
import { describeLockRefusal, type LockRefusal } from '../core/lockRefusal';
import type { LockRow, RowScopeHolder } from '../core/lockRow';
import { queueBlockOf } from '../core/planLockChange';
import { cappedLease, DEFAULT_TABLE_RULES, type EditorRights } from '../core/tableRules';
import type { ExpectedRow } from '../sql/compareAndSet';
import { recordDeniedAttempt } from '../sql/deniedAttemptLog';
import { isRegisteredTable } from '../sql/isRegisteredTable';
import { readLockScope } from '../sql/lockScope';
import { notAMasterTable } from '../sql/notAMasterTable';
import {
  groundChanged,
  insertRowScope,
  insertRowScopes,
  lockScopeRows,
  type NewRowScope,
  readRowScopeGround,
} from '../sql/rowScopeSql';
import { waitingForLocks } from '../sql/waitingForLocks';
import type { LockGrant } from './lockGrant';
import { inRowScopeBatch } from './rowScopeTurns';

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

/**
 * What one attempt at a scope came to: a grant, a refusal, rows found changed or held, or an
 * error of its own (in a turn, the others' answers stand).
 */
type Attempt =
  | { granted: LockGrant & { rows: string[] } }
  | { refused: LockRefusal }
  | { contended: true }
  | { failed: LockError };

/**
 * Starts editing the rows of a table whose row-lock column has one of `rows` (a row scope, see
 * docs/decisions/0021), beside other editors of other values: a fencing token of its own, a
 * lease, and the table's FK targets locked for it, shared. Refused at once, naming who is in the
 * way, when the table is edited whole or locked as a reference, a scope holds any of the values,
 * an FK target is edited, or someone waits in line first for what it wants (the whole table,
 * one of its values, or its table as their FK target).
 *
 * Like a whole-table acquisition it reads, decides and writes with one conditional write, in
 * turns with this process's other changes of the table's scopes, together with the other
 * acquisitions of them that arrived meanwhile (inRowScopeBatch); only when that write finds the
 * rows changed or held (another process, a save) does it lock them and decide again.
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
        attempt = await inRowScopeBatch(
          db,
          request.tableName,
          'acquire',
          { request, ground },
          (asked) => attemptRowScopes(db, asked),
        );
      }
      if ('contended' in attempt) {
        attempt = await waitingForLocks(db, [request.tableName], async (tx) => {
          await lockScopeRows(tx, request.tableName);
          return attemptRowScope(tx, { request, ground }, true);
        });
      }
      if ('granted' in attempt) return { granted: attempt.granted };
      if ('failed' in attempt) throw attempt.failed;
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

/** An acquisition as a turn takes it: the request, and its ground (see scopeGroundOf). */
interface Asked {
  request: AcquireRowScope;
  ground: { column: string; rows: string[] };
}

/**
 * Acquisitions of scopes of one table gathered for one turn, answered in order. Decided on one
 * read and written with one conditional write when nobody waits in line for the table or its
 * FK targets (then only the scopes themselves are in each other's way); one by one, each on its
 * own place in line, when someone does.
 */
async function attemptRowScopes(db: Queryable, asked: Asked[]): Promise<Attempt[]> {
  const [first] = asked;
  if (asked.length === 1 && first) return [await attemptRowScope(db, first, false)];
  const tableName = first?.request.tableName ?? '';
  const scope = await readLockScope(db, tableName, [], false, { editor: '' });
  if ([...scope.values()].some((row) => (row.waitersAhead ?? []).length > 0)) {
    const attempts: Attempt[] = [];
    for (const one of asked) attempts.push(await attemptRowScope(db, one, false));
    return attempts;
  }
  return takeRowScopes(db, asked, scope, false);
}

/**
 * Reads the scope's registry rows, decides, and writes the scope. `lockFirst`: in the caller's
 * transaction, having locked the rows first (locked first, read after, in a statement of its
 * own: a read in the locking statement would see the scopes as they were before it waited, not
 * those just taken). Else a plain read, and a conditional write on the versions read.
 */
async function attemptRowScope(db: Queryable, asked: Asked, lockFirst: boolean): Promise<Attempt> {
  const { request, ground } = asked;
  const scope = await readLockScope(db, request.tableName, [], false, {
    editor: request.editor,
    rows: ground.rows,
    ...(request.waiterId ? { waiterId: request.waiterId } : {}),
  });
  const [attempt] = await takeRowScopes(db, [asked], scope, lockFirst);
  return attempt ?? { contended: true };
}

/**
 * Decides each acquisition of `asked` (scopes of one table) on the registry rows read, in order
 * (each in the way of those after it that overlap it), and writes the scopes granted in one
 * statement: in the caller's transaction when it locked the rows (`lockFirst`), else as a
 * conditional write on the versions read (all `contended` when it finds them changed or held).
 */
async function takeRowScopes(
  db: Queryable,
  asked: Asked[],
  scope: ReadonlyMap<string, LockRow>,
  lockFirst: boolean,
): Promise<Attempt[]> {
  const tableName = asked[0]?.request.tableName ?? '';
  const main = scope.get(tableName);
  if (!main) throw await notAMasterTable(db, tableName);
  const fkRows = main.references
    .filter((name) => name !== tableName)
    .flatMap((name) => scope.get(name) ?? [])
    .filter((row) => row.rules?.takesPartInLocking !== false);
  const editorOf = (holder: string) => scope.get(holder)?.editor ?? null;
  const taken: RowScopeHolder[] = [];
  const decided = asked.map(({ request, ground }): { refused: LockRefusal } | NewRowScope => {
    const withTaken = { ...main, rowScopes: [...(main.rowScopes ?? []), ...taken] };
    const block =
      policyBlockOf(main, request.rights) ??
      editBlockOf(withTaken, fkRows, editorOf, ground.rows) ??
      queueBlockOf([main, ...fkRows]);
    if (block) return { refused: block };
    taken.push({ editor: request.editor, rows: ground.rows });
    return {
      editor: request.editor,
      rows: ground.rows,
      leaseSeconds: cappedLease(request.leaseSeconds, main.rules ?? DEFAULT_TABLE_RULES),
      column: ground.column,
      event: { actor: request.actor ?? request.editor, details: { rows: ground.rows } },
    };
  });
  const toTake = decided.filter((one): one is NewRowScope => !('refused' in one));
  if (toTake.length === 0) return decided.filter((one) => 'refused' in one);
  const lockedTables = fkRows.map((row) => row.tableName).sort();
  const table = { tableName, masterSchema: asked[0]?.request.masterSchema ?? '' };
  const written = lockFirst
    ? [await insertRowScope(db, table, toTake[0] as NewRowScope, lockedTables)]
    : await insertRowScopes(db, table, toTake, lockedTables, rowsTouched(scope, tableName));
  if (written === 'contended') {
    return decided.map((one) => ('refused' in one ? one : { contended: true }));
  }
  return decided.map((one) => {
    if ('refused' in one) return one;
    const inserted = written[toTake.indexOf(one)];
    if (!inserted) return { failed: groundChanged(tableName) };
    return {
      granted: {
        tableName,
        editor: one.editor,
        fencingToken: inserted.fencing_token,
        leaseExpiresAt: inserted.lease_expires_at,
        lastActiveAt: inserted.last_active_at,
        idleLimitSeconds: null,
        lockedTables,
        rows: one.rows,
      },
    };
  });
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
  const ground = await readRowScopeGround(db, masterSchema, tableName, request.rows);
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
  if (ground.invalid.length > 0) {
    throw new LockError(
      'BAD_USER_INPUT',
      `rows names values of ${tableName}.${ground.column}; ${ground.invalid.slice(0, 5).join(', ')} ${ground.invalid.length === 1 ? 'is' : 'are'} not.`,
    );
  }
  return { column: ground.column, rows: ground.values };
}
