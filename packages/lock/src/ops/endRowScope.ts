import { isPoolClient, type Queryable } from '@tablelock/db';
import { inSpan } from '@tablelock/tracing';
import { LockError } from '../core/lockError';
import { IDLE_REASON, LEASE_EXPIRED_REASON } from '../sql/idleLimitSql';
import {
  deleteHeldRowScopes,
  deleteRowScope,
  lockLiveRowScope,
  lockScopeRows,
  readDeadRowScopes,
} from '../sql/rowScopeSql';
import { waitingForLocks } from '../sql/waitingForLocks';
import { inRowScopeBatch } from './rowScopeTurns';

/**
 * Finishes the holder's row scope `token` of `tableName` (docs/decisions/0021): its rows are
 * free, and when it was the table's last scope its FK targets are no longer locked for it.
 * LOCK_LOST when the scope is no longer the holder's (its lease ran out, or it ended).
 */
export function releaseRowScope(
  db: Queryable,
  request: { tableName: string; editor: string; token: string; actor?: string },
): Promise<void> {
  return inSpan(
    'tablelock.row_scope.release',
    { 'tablelock.table': request.tableName },
    async () => {
      const ended =
        isPoolClient(db) &&
        (await inRowScopeBatch(db, request.tableName, 'release', request, (requests) =>
          endHeldRowScopes(db, request.tableName, requests),
        ));
      if (ended) return;
      await waitingForLocks(db, [request.tableName], async (tx) => {
        await lockScopeRows(tx, request.tableName);
        const scope = await lockLiveRowScope(tx, request.tableName, request.token);
        if (!scope || scope.editor !== request.editor) {
          throw new LockError(
            'LOCK_LOST',
            `Row scope ${request.token} of ${request.tableName} is no longer held.`,
          );
        }
        await deleteRowScope(tx, request.tableName, request.token, {
          ...releaseEvent(request),
          details: { rows: scope.rows },
        });
      });
    },
  );
}

/**
 * Ends holders' scopes of one table gathered for one turn by one conditional write, without a
 * transaction or a wait: for each, false when the scope is not (or no longer) the holder's live
 * one, or the write found the rows it touches changed or held, and nothing was written for it —
 * then releaseRowScope locks the rows and decides on what it finds.
 */
async function endHeldRowScopes(
  db: Queryable,
  tableName: string,
  requests: { editor: string; token: string; actor?: string }[],
): Promise<boolean[]> {
  const ended = await deleteHeldRowScopes(
    db,
    tableName,
    requests.map((request) => ({
      token: request.token,
      editor: request.editor,
      actor: request.actor ?? request.editor,
    })),
  );
  return requests.map((_, index) => ended !== 'contended' && ended[index] === 'ended');
}

/** The history's `release` of a scope by its holder (or an actor for it). */
function releaseEvent(request: { tableName: string; editor: string; actor?: string }) {
  return {
    action: 'release' as const,
    tableName: request.tableName,
    actor: request.actor ?? request.editor,
    editor: request.editor,
  };
}

/**
 * Ends a dead scope (see readDeadRowScopes) as the sweeper's `expire` by `system`, with why it
 * died. False when it had ended already. An admin's force release is forceReleaseRowScope.
 */
function expireRowScope(
  db: Queryable,
  scope: { tableName: string; token: string; editor: string; idle: boolean },
): Promise<boolean> {
  return waitingForLocks(db, [scope.tableName], async (tx) => {
    await lockScopeRows(tx, scope.tableName);
    return deleteRowScope(tx, scope.tableName, scope.token, {
      action: 'expire',
      tableName: scope.tableName,
      actor: 'system',
      editor: scope.editor,
      reason: scope.idle ? IDLE_REASON : LEASE_EXPIRED_REASON,
    });
  });
}

/**
 * The sweeper's round for row scopes: ends every scope whose lease has run out or whose holder
 * was idle past the idle limit, each recorded and announced as `expire` by `system` (reason
 * `lease expired` or `idle`). Safe from every API process at once: a scope is
 * deleted once. Answers how many it ended.
 */
export async function expireRowScopes(db: Queryable): Promise<number> {
  let expired = 0;
  for (const scope of await readDeadRowScopes(db)) {
    if (await expireRowScope(db, scope)) expired++;
  }
  return expired;
}
