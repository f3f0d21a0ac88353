import type { Queryable } from '@tablelock/db';
import type { LockAnswer } from '../core/lockAnswer';
import { LockError } from '../core/lockError';
import type { EditorRights } from '../core/tableRules';
import { changeTableLock, expireDeadLocks } from './changeTableLock';
import { type LockGrant, lockGrantOf } from './lockGrant';
import { explainLostLock } from './lostLock';

/**
 * Extends the lease of the holder's acquisition `token`; LOCK_LOST if it is no longer current.
 * `active`: the holder showed activity since its last renewal, so its idle time starts again;
 * a lock whose holder stays inactive ends at the table's idle limit (see idleLimit.ts). A holder
 * the table's policy no longer lets edit cannot renew (see requireHolderAllowed).
 */
export async function renewTableLock(
  db: Queryable,
  request: {
    tableName: string;
    editor: string;
    token: string;
    leaseSeconds: number | null;
    active: boolean;
    /** The holder's role and groups: the table's policy must still let the holder edit. */
    rights?: EditorRights;
  },
): Promise<LockAnswer<LockGrant>> {
  try {
    const result = await changeTableLock(
      db,
      { kind: 'renew', ...request },
      { actor: request.editor },
    );
    if (!result.written) {
      return { refused: result.refusal, tableName: request.tableName };
    }
    return { granted: lockGrantOf(result, request.tableName) };
  } catch (error) {
    // A lock found dead but not yet swept ends now, so that the history (and everyone
    // listening) learns why at once: the holder's page asks at its idle limit.
    if (error instanceof LockError && error.code === 'LOCK_LOST') {
      await expireDeadLocks(db, [request.tableName]);
    }
    throw await explainLostLock(db, error, request.tableName, request.token);
  }
}
