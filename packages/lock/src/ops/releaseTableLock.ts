import type { Queryable } from '@tablelock/db';
import type { LockAnswer } from '../core/lockAnswer';
import { changeTableLock } from './changeTableLock';
import { explainLostLock } from './lostLock';
import { type ReleasedLock, releasedLockOf } from './releasedLock';

/** Finishes the holder's acquisition `token`, releasing its FK locks; LOCK_LOST if it is gone. */
export async function releaseTableLock(
  db: Queryable,
  request: { tableName: string; editor: string; token: string; actor?: string; reason?: string },
): Promise<LockAnswer<ReleasedLock>> {
  try {
    const result = await changeTableLock(
      db,
      {
        kind: 'release',
        tableName: request.tableName,
        namedFkTables: [],
        editor: request.editor,
        token: request.token,
      },
      { actor: request.actor ?? request.editor, reason: request.reason ?? null },
    );
    if (!result.written) {
      return { refused: result.refusal, tableName: request.tableName };
    }
    return { granted: releasedLockOf(result, request.tableName) };
  } catch (error) {
    throw await explainLostLock(db, error, request.tableName, request.token);
  }
}
