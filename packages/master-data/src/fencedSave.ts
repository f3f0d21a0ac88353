import { inTransaction, type Queryable, type TransactionClient } from '@tablelock/db';
import { assertHoldsLock, explainLockEndedInDatabase, recordLockEvent } from '@tablelock/lock';
import { inSpan } from '@tablelock/tracing';
import { type ApprovedRequest, assertApprovalGiven } from './changeRequests/approvalRequired';
import {
  currentChangeSetId,
  declareOwnWrite,
  declareRequestWrite,
  type OwnWrite,
} from './guard/ownWrite';

/** How many rows a save wrote, by kind. */
export interface SaveCounts {
  inserted: number;
  updated: number;
  deleted: number;
}

export interface FencedSave {
  tableName: string;
  /** Who saves: must be the lock's editor. */
  holder: string;
  /** The fencing token of the holder's acquisition, already checked to be a number. */
  token: string;
  /** Why, for the audit history (e.g. `import products.csv`); null for a grid save. */
  reason?: string | null;
  /** Extra facts for the history's `details`, beside the counts. */
  details?: Record<string, unknown>;
  timeoutMs?: number;
  /** What the row history records it as: a save unless said otherwise. */
  kind?: OwnWrite['kind'];
  revertsChangeSetId?: OwnWrite['revertsChangeSetId'];
  /** The approved change request this save applies; without one, a table needing approval refuses. */
  approval?: ApprovedRequest;
}

/**
 * The one way master data is written: in one transaction that first checks the fencing token
 * (LOCK_LOST if the acquisition is no longer current, and then nothing is written; so too when
 * the write guard finds the lease run out by the time of the write), runs
 * `write`, and, if it saved, records a `save` event in the audit history and announces it,
 * before it commits. The grid's saves, imports, reverts and approved change requests go through
 * here; on a table that needs approval only the last (APPROVAL_REQUIRED otherwise).
 */
export function fencedSave<Result extends SaveCounts & { saved: boolean }>(
  db: Queryable,
  save: FencedSave,
  write: (tx: TransactionClient) => Promise<Result>,
): Promise<Result> {
  const { tableName } = save;
  return inSpan('tablelock.save', { 'tablelock.table': tableName }, async (span) => {
    const result = await fencedTransaction(db, save, write);
    span.setAttribute('tablelock.rows', result.inserted + result.updated + result.deleted);
    span.setAttribute('tablelock.saved', result.saved);
    return result;
  });
}

function fencedTransaction<Result extends SaveCounts & { saved: boolean }>(
  db: Queryable,
  save: FencedSave,
  write: (tx: TransactionClient) => Promise<Result>,
): Promise<Result> {
  const { tableName, holder, token } = save;
  return inTransaction(
    db,
    async (tx) => {
      await assertHoldsLock(tx, { tableName, editor: holder, token });
      await assertApprovalGiven(tx, tableName, save.approval);
      const { kind = 'save', revertsChangeSetId, approval } = save;
      // The trigger names the approver in the change set, from the request's mark.
      if (approval) await declareRequestWrite(tx, { ...approval, tableName, kind });
      else await declareOwnWrite(tx, { tableName, token, kind, revertsChangeSetId });
      const result = await write(tx);
      if (!result.saved) return result;
      const changeSetId = await currentChangeSetId(tx, tableName);
      await recordLockEvent(tx, {
        action: 'save',
        tableName,
        actor: holder,
        editor: holder,
        token,
        reason: save.reason ?? null,
        rowsChanged: result.inserted + result.updated + result.deleted,
        details: {
          ...save.details,
          inserted: result.inserted,
          updated: result.updated,
          deleted: result.deleted,
          changeSetId,
          ...save.approval,
        },
      });
      return result;
    },
    { timeout: save.timeoutMs ?? 60_000 },
  ).catch(async (error: unknown) => {
    throw await explainLockEndedInDatabase(db, error, tableName, token);
  });
}
