import type { Queryable } from '@tablelock/db';
import { changeTableLock } from './changeTableLock';
import { type LockGrant, lockConflict, lockGrantOf } from './lockGrant';
import { describeLockRefusal, type LockRefusal } from './lockRefusal';
import { readEditors } from './lockRegistrySql';

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
    const refusal = result.refusal && (await withHolderEditors(db, result.refusal));
    const conflict = lockConflict(request.tableName, refusal);
    // Written by the caller, after any transaction of its that this refusal rolls back.
    conflict.unrecordedEvent = {
      action: 'denied',
      tableName: request.tableName,
      actor,
      editor: request.editor,
      reason: refusal ? describeLockRefusal(request.tableName, refusal) : null,
    };
    throw conflict;
  }
  return lockGrantOf(result, request.tableName);
}

/**
 * The refusal naming every editor in the way: a `locked` table's holders are not among the rows
 * an acquisition reads, so their editors are looked up (only when refused).
 */
async function withHolderEditors(db: Queryable, refusal: LockRefusal): Promise<LockRefusal> {
  if (refusal.kind !== 'lockedByEditing') return refusal;
  const editors = await readEditors(
    db,
    refusal.blockers.map((blocker) => blocker.table),
  );
  return {
    ...refusal,
    blockers: refusal.blockers.map((blocker) => ({
      ...blocker,
      editor: blocker.editor ?? editors.get(blocker.table) ?? null,
    })),
  };
}
