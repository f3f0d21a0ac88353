import type { TransactionClient } from '@tablelock/db';
import { declareOwnWrite, declareRequestWrite } from './guard/ownWrite';
import { applyChanges, type RowChanges, type SaveResult } from './saveRows';
import type { MasterTable } from './tableColumns';

/**
 * Whose write a trial is: a pending change request's (its submission, its review), or the lock
 * holder's own grid save under their fencing token, already checked to hold the table.
 */
export type TrialWriter = { changeRequestId: string } | { token: string };

/**
 * What saving `changes` would do today, found by writing them in the caller's transaction, as
 * `writer`, and rolling them back: the grid save's own checks (row versions, NOT NULL, CHECK,
 * UNIQUE, foreign keys), every row's refusal at once, nothing kept. Submitting a request,
 * reviewing it and checking the grid's pending changes (checkRows) try changes this way.
 */
export async function trialSave(
  tx: TransactionClient,
  table: MasterTable,
  writer: TrialWriter,
  changes: RowChanges,
): Promise<SaveResult> {
  await tx.$executeRawUnsafe('SAVEPOINT trial_save');
  // Inside the savepoint: the trial's mark goes with its writes.
  if ('changeRequestId' in writer) {
    await declareRequestWrite(tx, {
      changeRequestId: writer.changeRequestId,
      tableName: table.name,
      approvedBy: null,
      kind: 'save',
    });
  } else {
    await declareOwnWrite(tx, { tableName: table.name, token: writer.token, kind: 'save' });
  }
  const result = await applyChanges(tx, table, changes);
  await tx.$executeRawUnsafe('ROLLBACK TO SAVEPOINT trial_save');
  return result;
}
