import type { Queryable } from '@tablelock/db';
import type { LockAnswer } from '../core/lockAnswer';
import type { LockRefusal } from '../core/lockRefusal';
import type { EditorRights } from '../core/tableRules';
import { readEditors } from '../sql/readEditors';
import { changeTableLock } from './changeTableLock';
import { type LockGrant, lockGrantOf } from './lockGrant';

export interface AcquireTableLock {
  tableName: string;
  editor: string;
  /** Who asks, when not the editor (an admin key acting for a user). */
  actor?: string;
  /** From leaseSeconds(): null means no expiry. */
  leaseSeconds: number | null;
  /** The caller's waiter, when it waits in line (see LockIntent). */
  waiterId?: string;
  /** Wait for rows another change holds rather than answer `contended` (see LockChangeOptions). */
  waitForRows?: boolean;
  /** Whether a refusal goes into the history as `denied` (default): not while waiting in line. */
  recordDenial?: boolean;
  /** The caller's role and groups, for the table's policy of who may edit (see LockIntent). */
  rights?: EditorRights;
}

/**
 * Starts editing a table (and locks its FK targets) with a lease and a new fencing token.
 * Never waits in line: if anyone is in the way (or in line first) it is refused at once,
 * naming every one of them.
 */
export async function acquireTableLock(
  db: Queryable,
  request: AcquireTableLock,
): Promise<LockAnswer<LockGrant>> {
  const result = await changeTableLock(
    db,
    {
      kind: 'acquire',
      tableName: request.tableName,
      namedFkTables: [],
      editor: request.editor,
      leaseSeconds: request.leaseSeconds,
      ...(request.waiterId ? { waiterId: request.waiterId } : {}),
      ...(request.rights ? { rights: request.rights } : {}),
    },
    {
      actor: request.actor ?? request.editor,
      waitForRows: request.waitForRows ?? false,
      recordDenial: request.recordDenial ?? true,
    },
  );
  if (!result.written) {
    return {
      refused: await withHolderEditors(db, result.refusal),
      tableName: request.tableName,
    };
  }
  return { granted: lockGrantOf(result, request.tableName) };
}

/**
 * The refusal naming every editor in the way: a `locked` table's holders are not among the rows
 * an acquisition reads, so their editors are looked up (only when refused).
 */
export async function withHolderEditors(db: Queryable, refusal: LockRefusal): Promise<LockRefusal> {
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
