import type { Queryable } from '@tablelock/db';
import type { LockAnswer } from '../core/lockAnswer';
import { changeTableLock } from './changeTableLock';
import { type ReleasedLock, releasedLockOf } from './releasedLock';

/**
 * Ends whoever's editing of `tableName` with all its FK holds, as the holder's own release
 * would; waits for a save in flight to commit first. For admins clearing stale locks (the
 * caller checks the role); `reason` goes to the audit history.
 */
export async function forceReleaseTableLock(
  db: Queryable,
  request: { tableName: string; actor: string; reason: string },
): Promise<LockAnswer<ReleasedLock>> {
  const result = await changeTableLock(
    db,
    { kind: 'forceRelease', tableName: request.tableName },
    { actor: request.actor, reason: request.reason },
  );
  if (!result.written) {
    return { refused: result.refusal, tableName: request.tableName };
  }
  return { granted: releasedLockOf(result, request.tableName) };
}
