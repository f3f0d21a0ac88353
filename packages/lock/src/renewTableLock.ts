import type { Queryable } from '@tablelock/db';
import { changeTableLock } from './changeTableLock';
import type { LockAnswer } from './lockAnswer';
import { type LockGrant, lockGrantOf } from './lockGrant';
import { explainLostLock } from './lostLock';

/** Extends the lease of the holder's acquisition `token`; LOCK_LOST if it is no longer current. */
export async function renewTableLock(
  db: Queryable,
  request: { tableName: string; editor: string; token: string; leaseSeconds: number | null },
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
    throw await explainLostLock(db, error, request.tableName, request.token);
  }
}
