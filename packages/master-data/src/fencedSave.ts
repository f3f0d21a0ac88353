import { inTransaction, type Queryable, type TransactionClient } from '@tablelock/db';
import { assertHoldsLock, recordLockEvent } from '@tablelock/lock';
import { currentChangeSetId, declareOwnWrite, type OwnWrite } from './guard/ownWrite';

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
}

/**
 * The one way master data is written: in one transaction that first checks the fencing token
 * (LOCK_LOST if the acquisition is no longer current, and then nothing is written), runs
 * `write`, and, if it saved, records a `save` event in the audit history and announces it,
 * before it commits. Both the grid's saves and imports go through here.
 */
export function fencedSave<Result extends SaveCounts & { saved: boolean }>(
  db: Queryable,
  save: FencedSave,
  write: (tx: TransactionClient) => Promise<Result>,
): Promise<Result> {
  const { tableName, holder, token } = save;
  return inTransaction(
    db,
    async (tx) => {
      await assertHoldsLock(tx, { tableName, editor: holder, token });
      const { kind = 'save', revertsChangeSetId } = save;
      await declareOwnWrite(tx, { tableName, token, kind, revertsChangeSetId });
      const result = await write(tx);
      if (!result.saved) return result;
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
          changeSetId: await currentChangeSetId(tx, tableName),
        },
      });
      return result;
    },
    { timeout: save.timeoutMs ?? 60_000 },
  );
}
