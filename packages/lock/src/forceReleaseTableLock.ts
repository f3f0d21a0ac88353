import type { Queryable } from '@tablelock/db';
import { changeTableLock } from './changeTableLock';
import { lockConflict } from './lockGrant';

export interface ForcedRelease {
  tableName: string;
  /** Who was editing the table until now. */
  editor: string | null;
}

/**
 * Ends whoever's editing of `tableName` with all its FK holds, as the holder's own release
 * would; waits for a save in flight to commit first. For admins clearing stale locks (the
 * caller checks the role); `reason` goes to the audit history.
 */
export async function forceReleaseTableLock(
  db: Queryable,
  request: { tableName: string; actor: string; reason: string },
): Promise<ForcedRelease> {
  const result = await changeTableLock(
    db,
    { kind: 'forceRelease', tableName: request.tableName },
    { actor: request.actor, reason: request.reason },
  );
  if (!result.written) throw lockConflict(request.tableName, result.refusal);
  return { tableName: request.tableName, editor: result.previous?.editor ?? null };
}
