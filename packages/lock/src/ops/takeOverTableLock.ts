import type { Queryable } from '@tablelock/db';
import type { LockAnswer } from '../core/lockAnswer';
import type { EditorRights } from '../core/tableRules';
import { takeOverPermission } from '../core/takeOverRule';
import { readTakeOverSettings } from '../rules/takeOverSettings';
import { changeTableLock } from './changeTableLock';
import { type LockGrant, lockGrantOf } from './lockGrant';

/**
 * Makes `editor` the holder of a table someone is editing, in one step: a new acquisition
 * (new token, new lease) while its FK locks stay put, so nothing slips in between. The
 * displaced acquisition's token goes stale at once. Who may take over whose lock is the
 * admins' take-over rule (see takeOverRefusal): decided by the state machine on the rows the
 * conditional write claims (the holder's idleness among them), never by an earlier read.
 */
export async function takeOverTableLock(
  db: Queryable,
  request: {
    tableName: string;
    editor: string;
    reason: string;
    leaseSeconds: number | null;
    rights: EditorRights;
  },
): Promise<LockAnswer<LockGrant>> {
  const permission = takeOverPermission(
    await readTakeOverSettings(db),
    request.rights.role === 'admin',
  );
  const result = await changeTableLock(
    db,
    {
      kind: 'takeOver',
      tableName: request.tableName,
      editor: request.editor,
      leaseSeconds: request.leaseSeconds,
      ...permission,
      rights: request.rights,
    },
    { actor: request.editor, reason: request.reason },
  );
  if (!result.written) {
    return { refused: result.refusal, tableName: request.tableName };
  }
  return { granted: lockGrantOf(result, request.tableName) };
}
