import type { Queryable } from '@tablelock/db';
import { changeTableLock } from './changeTableLock';
import { LockError } from './lockError';
import { type LockGrant, lockConflict, lockGrantOf } from './lockGrant';
import { readLockScope } from './lockRegistrySql';

/**
 * Makes `editor` the holder of a table someone is editing, in one step: a new acquisition
 * (new token, new lease) while its FK locks stay put, so nothing slips in between. The
 * displaced acquisition's token goes stale at once. Unless `anyHolder` (admins), only the
 * editor's own lock can be taken over (from another tab or device).
 */
export async function takeOverTableLock(
  db: Queryable,
  request: {
    tableName: string;
    editor: string;
    reason: string;
    leaseSeconds: number | null;
    anyHolder: boolean;
  },
): Promise<LockGrant> {
  if (!request.anyHolder) {
    const main = (await readLockScope(db, request.tableName, [])).get(request.tableName);
    if (main?.status === 'editing' && main.editor !== request.editor) {
      throw new LockError(
        'FORBIDDEN',
        `${request.tableName} is being edited by ${main.editor}; only an admin can take it over.`,
      );
    }
  }
  const result = await changeTableLock(
    db,
    {
      kind: 'takeOver',
      tableName: request.tableName,
      editor: request.editor,
      leaseSeconds: request.leaseSeconds,
    },
    { actor: request.editor, reason: request.reason },
  );
  if (!result.written) throw lockConflict(request.tableName, result);
  return lockGrantOf(result, request.tableName);
}
