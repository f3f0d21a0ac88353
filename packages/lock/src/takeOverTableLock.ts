import type { Queryable } from '@tablelock/db';
import { changeTableLock } from './changeTableLock';
import type { LockAnswer } from './lockAnswer';
import { type LockGrant, lockGrantOf } from './lockGrant';

/**
 * Makes `editor` the holder of a table someone is editing, in one step: a new acquisition
 * (new token, new lease) while its FK locks stay put, so nothing slips in between. The
 * displaced acquisition's token goes stale at once. Unless `anyHolder` (admins), only the
 * editor's own lock can be taken over (from another tab or device): decided by the state
 * machine on the rows the conditional write claims, never by an earlier read.
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
): Promise<LockAnswer<LockGrant>> {
  const result = await changeTableLock(
    db,
    {
      kind: 'takeOver',
      tableName: request.tableName,
      editor: request.editor,
      leaseSeconds: request.leaseSeconds,
      anyHolder: request.anyHolder,
    },
    { actor: request.editor, reason: request.reason },
  );
  if (!result.written) {
    return { refused: result.refusal, tableName: request.tableName };
  }
  return { granted: lockGrantOf(result, request.tableName) };
}
