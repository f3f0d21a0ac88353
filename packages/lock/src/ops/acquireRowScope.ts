import { inTransaction, type Queryable } from '@tablelock/db';
import { editBlockOf, policyBlockOf } from '../core/editBlock';
import type { LockAnswer } from '../core/lockAnswer';
import { LockError } from '../core/lockError';
import { describeLockRefusal, type LockRefusal } from '../core/lockRefusal';
import type { LockRow } from '../core/lockRow';
import { queueBlockOf } from '../core/planLockChange';
import { cappedLease, DEFAULT_TABLE_RULES, type EditorRights } from '../core/tableRules';
import { recordDeniedAttempt } from '../sql/deniedAttemptLog';
import { readLockScope } from '../sql/lockScope';
import { notAMasterTable } from '../sql/notAMasterTable';
import { insertRowScope, lockScopeRows, readRowLockColumn } from '../sql/rowScopeSql';
import type { LockGrant } from './lockGrant';

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
}

/** A refusal that rolls the transaction back, to be answered after it. */
class Refused extends Error {
  constructor(readonly refusal: LockRefusal) {
    super('refused');
  }
}

/**
 * Starts editing the rows of a table whose row-lock column has one of `rows` (a row scope, see
 * docs/decisions/0021), beside other editors of other values: a fencing token of its own, a
 * lease, and the table's FK targets locked for it, shared. Refused at once, naming who is in the
 * way, when the table is edited whole or locked as a reference, a scope holds any of the values,
 * an FK target is edited, or someone waits in line for the table first.
 */
export async function acquireRowScope(
  db: Queryable,
  request: AcquireRowScope,
): Promise<LockAnswer<LockGrant & { rows: string[] }>> {
  const rows = scopeRows(request.rows);
  const actor = request.actor ?? request.editor;
  try {
    const granted = await inTransaction(db, async (tx) => {
      // Locked first, read after, in a statement of its own: a read in the locking statement
      // would see the scopes as they were before it waited, not those just taken.
      await lockScopeRows(tx, request.tableName);
      const scope = await readLockScope(tx, request.tableName, [], false, {
        editor: request.editor,
      });
      const main = scope.get(request.tableName);
      if (!main) throw await notAMasterTable(tx, request.tableName);
      if ((await readRowLockColumn(tx, request.masterSchema, request.tableName)) === null) {
        throw new LockError(
          'BAD_USER_INPUT',
          `${request.tableName} has no row-lock column: its primary key has several columns. An admin declares one in its policy (rowLockColumn).`,
        );
      }
      const fkRows = main.references
        .filter((name) => name !== request.tableName)
        .flatMap((name) => scope.get(name) ?? [])
        .filter((row) => row.rules?.takesPartInLocking !== false);
      const block =
        policyBlockOf(main, request.rights) ??
        editBlockOf(main, fkRows, (holder) => scope.get(holder)?.editor ?? null, rows) ??
        queueBlockOf([main, ...fkRows]);
      if (block) throw new Refused(block);
      const leaseSeconds = cappedLease(request.leaseSeconds, main.rules ?? DEFAULT_TABLE_RULES);
      const written = await insertRowScope(
        tx,
        { tableName: request.tableName, editor: request.editor, rows, leaseSeconds },
        fkRows.map((row) => row.tableName),
        {
          action: 'acquire',
          tableName: request.tableName,
          actor,
          editor: request.editor,
          details: { rows },
        },
      );
      return {
        tableName: request.tableName,
        editor: request.editor,
        fencingToken: written.fencing_token,
        leaseExpiresAt: written.lease_expires_at,
        lastActiveAt: written.last_active_at,
        idleLimitSeconds: null,
        lockedTables: fkRows.map((row: LockRow) => row.tableName).sort(),
        rows,
      };
    });
    return { granted };
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    await recordDeniedAttempt(db, {
      action: 'denied',
      tableName: request.tableName,
      actor,
      editor: request.editor,
      reason: describeLockRefusal(request.tableName, error.refusal),
    });
    return { refused: error.refusal, tableName: request.tableName };
  }
}

/** The values asked for, once each and sorted: 1–MAX_SCOPE_ROWS of them, none empty. */
function scopeRows(asked: string[]): string[] {
  const rows = [...new Set(asked)].sort();
  if (rows.length === 0 || rows.length > MAX_SCOPE_ROWS || rows.some((value) => value === '')) {
    throw new LockError(
      'BAD_USER_INPUT',
      `rows names from 1 to ${MAX_SCOPE_ROWS} values of the table's row-lock column, none empty.`,
    );
  }
  return rows;
}
