import type { Queryable } from '@tablelock/db';
import { inSpan } from '@tablelock/tracing';
import { parseFencingToken } from '../core/fencingToken';
import { LockError } from '../core/lockError';
import { deleteRowScope, lockRowScope, lockScopeRows } from '../sql/rowScopeSql';
import { waitingForLocks } from '../sql/waitingForLocks';
import type { ReleasedLock } from './releasedLock';

/**
 * An admin ends row scope `token` of `tableName` (docs/decisions/0021), live or past its lease,
 * as its holder's release would, recorded as `force_release` with the reason; a save in flight
 * under it commits first. INVALID_TRANSITION when the table has no such scope (it has ended).
 * Answers whose scope it was.
 */
export function forceReleaseRowScope(
  db: Queryable,
  request: { tableName: string; token: string; actor: string; reason: string },
): Promise<ReleasedLock & { rows: string[] }> {
  return inSpan(
    'tablelock.row_scope.force_release',
    { 'tablelock.table': request.tableName },
    async () => {
      parseFencingToken(request.token);
      return waitingForLocks(db, [request.tableName], async (tx) => {
        await lockScopeRows(tx, request.tableName);
        const scope = await lockRowScope(tx, request.tableName, request.token);
        if (!scope) {
          throw new LockError(
            'INVALID_TRANSITION',
            `${request.tableName} has no row lock ${request.token}: it has ended already.`,
          );
        }
        await deleteRowScope(tx, request.tableName, request.token, {
          action: 'force_release',
          tableName: request.tableName,
          actor: request.actor,
          editor: scope.editor,
          reason: request.reason,
          details: { rows: scope.rows },
        });
        return { tableName: request.tableName, editor: scope.editor, rows: scope.rows };
      });
    },
  );
}
