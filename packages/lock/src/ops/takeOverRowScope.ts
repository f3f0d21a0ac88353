import type { Queryable } from '@tablelock/db';
import { inSpan } from '@tablelock/tracing';
import { parseFencingToken } from '../core/fencingToken';
import { LockError } from '../core/lockError';
import { cappedLease, DEFAULT_TABLE_RULES, type EditorRights } from '../core/tableRules';
import { takeOverPermission, takeOverRefusal } from '../core/takeOverRule';
import { readTakeOverSettings } from '../rules/takeOverSettings';
import { readLockScope } from '../sql/lockScope';
import {
  deleteRowScope,
  insertRowScope,
  lockLiveRowScope,
  lockScopeRows,
  readRowLockColumn,
} from '../sql/rowScopeSql';
import { waitingForLocks } from '../sql/waitingForLocks';
import type { LockGrant } from './lockGrant';

/**
 * Makes `editor` the holder of row scope `token` of `tableName` in one step (docs/decisions/0021):
 * the scope ends (`take_over`, with the reason, naming the new token) and a scope of the same
 * values begins under a new token, while the table's FK locks stay put, so nothing slips in
 * between. The displaced token goes stale at once. Who may take over whose scope is the
 * take-over rule, as for a table (see takeOverRefusal), judged on the scope's own activity.
 * INVALID_TRANSITION when the table has no such live scope.
 */
export function takeOverRowScope(
  db: Queryable,
  request: {
    tableName: string;
    token: string;
    editor: string;
    reason: string;
    leaseSeconds: number | null;
    rights: EditorRights;
    masterSchema: string;
  },
): Promise<LockGrant & { rows: string[] }> {
  return inSpan(
    'tablelock.row_scope.take_over',
    { 'tablelock.table': request.tableName },
    async () => {
      parseFencingToken(request.token);
      const permission = takeOverPermission(
        await readTakeOverSettings(db),
        request.rights.role === 'admin',
      );
      return waitingForLocks(db, [request.tableName], async (tx) => {
        await lockScopeRows(tx, request.tableName);
        const held = await lockLiveRowScope(tx, request.tableName, request.token);
        if (!held) {
          throw new LockError(
            'INVALID_TRANSITION',
            `${request.tableName} has no live row lock ${request.token} to take over.`,
          );
        }
        const scope = await readLockScope(tx, request.tableName, [], false);
        const main = scope.get(request.tableName);
        const rules = main?.rules ?? DEFAULT_TABLE_RULES;
        const idleSeconds = (Date.now() - held.last_active_at.getTime()) / 1000;
        const refusal = takeOverRefusal(
          { tableName: request.tableName, editor: held.editor, rules, idleSeconds },
          request,
          permission,
        );
        if (refusal) throw refusal;
        await deleteRowScope(tx, request.tableName, request.token, {
          action: 'take_over',
          tableName: request.tableName,
          actor: request.editor,
          editor: held.editor,
          reason: request.reason,
          details: { rows: held.rows, previousEditor: held.editor },
        });
        const lockedTables = (main?.references ?? [])
          .filter((name) => name !== request.tableName)
          .filter((name) => scope.get(name)?.rules?.takesPartInLocking !== false)
          .sort();
        const taken = await insertRowScope(
          tx,
          { tableName: request.tableName, masterSchema: request.masterSchema },
          {
            editor: request.editor,
            rows: held.rows,
            leaseSeconds: cappedLease(request.leaseSeconds, rules),
            column: (await readRowLockColumn(tx, request.masterSchema, request.tableName)) ?? '',
            event: {
              actor: request.editor,
              reason: request.reason,
              details: { rows: held.rows, tookOver: request.token },
            },
          },
          lockedTables,
        );
        return {
          tableName: request.tableName,
          editor: request.editor,
          fencingToken: taken.fencing_token,
          leaseExpiresAt: taken.lease_expires_at,
          lastActiveAt: taken.last_active_at,
          idleLimitSeconds: null,
          lockedTables,
          rows: held.rows,
        };
      });
    },
  );
}
