import type { Queryable } from '@tablelock/db';
import { changeTableLock } from './changeTableLock';
import { type LockGrant, lockConflict, lockGrantOf } from './lockGrant';

export interface AcquireTableLock {
  tableName: string;
  editor: string;
  /** Who asks, when not the editor (an admin key acting for a user). */
  actor?: string;
  /** From leaseSeconds(): null means no expiry. */
  leaseSeconds: number | null;
}

/**
 * Starts editing a table (and locks its FK targets) with a lease and a new fencing token.
 * Never waits: if anyone is in the way it is LOCK_CONFLICT, naming them; the error carries the
 * `denied` audit event for the caller to record (runIdempotently does).
 */
export async function acquireTableLock(
  db: Queryable,
  request: AcquireTableLock,
): Promise<LockGrant> {
  const actor = request.actor ?? request.editor;
  const result = await changeTableLock(
    db,
    {
      kind: 'acquire',
      tableName: request.tableName,
      namedFkTables: [],
      editor: request.editor,
      leaseSeconds: request.leaseSeconds,
    },
    { actor },
  );
  if (!result.written) {
    const conflict = lockConflict(request.tableName, result);
    // Written by the caller, after any transaction of its that this refusal rolls back.
    conflict.unrecordedEvent = {
      action: 'denied',
      tableName: request.tableName,
      actor,
      editor: request.editor,
      reason: result.reason ?? null,
    };
    throw conflict;
  }
  return lockGrantOf(result, request.tableName);
}
