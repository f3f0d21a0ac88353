import type { Queryable } from '@tablelock/db';
import { changeTableLock } from './changeTableLock';
import { lockConflict } from './lockGrant';
import { explainLostLock } from './lostLock';

/** Finishes the holder's acquisition `token`, releasing its FK locks; LOCK_LOST if it is gone. */
export async function releaseTableLock(
  db: Queryable,
  request: { tableName: string; editor: string; token: string; actor?: string; reason?: string },
): Promise<void> {
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
    if (!result.written) throw lockConflict(request.tableName, result.refusal);
  } catch (error) {
    throw await explainLostLock(db, error, request.tableName, request.token);
  }
}
