import type { Queryable } from '@tablelock/db';
import { inSpan } from '@tablelock/tracing';
import { LockError } from '../core/lockError';
import { renewRowScopeLease } from '../sql/rowScopeSql';
import type { LockGrant } from './lockGrant';

/**
 * Extends the lease of the holder's row scope `token`; LOCK_LOST once it is no longer the
 * holder's (its lease ran out, or it ended).
 */
export function renewRowScope(
  db: Queryable,
  request: {
    tableName: string;
    editor: string;
    token: string;
    leaseSeconds: number | null;
    active: boolean;
  },
): Promise<LockGrant & { rows: string[] }> {
  return inSpan('tablelock.row_scope.renew', { 'tablelock.table': request.tableName }, async () => {
    const renewed = await renewRowScopeLease(db, request, request.leaseSeconds, request.active);
    if (!renewed) {
      throw new LockError(
        'LOCK_LOST',
        `Row scope ${request.token} of ${request.tableName} is no longer held.`,
      );
    }
    return {
      tableName: request.tableName,
      editor: renewed.editor,
      fencingToken: renewed.fencing_token,
      leaseExpiresAt: renewed.lease_expires_at,
      lastActiveAt: renewed.last_active_at,
      idleLimitSeconds: null,
      lockedTables: [],
      rows: renewed.rows,
    };
  });
}
