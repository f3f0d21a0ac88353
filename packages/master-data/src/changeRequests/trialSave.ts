import type { TransactionClient } from '@tablelock/db';
import { declareRequestWrite } from '../guard/ownWrite';
import { applyChanges, type RowChanges, type SaveResult } from '../saveRows';
import type { MasterTable } from '../tableColumns';

/**
 * What saving pending change request `changeRequestId`'s `changes` would do today, found by
 * writing them in the caller's transaction, under the request's token, and rolling them back:
 * the grid save's own checks (row versions, NOT NULL, CHECK, UNIQUE, foreign keys), nothing
 * kept. Submitting a request and reviewing it check it this way.
 */
export async function trialSave(
  tx: TransactionClient,
  table: MasterTable,
  changeRequestId: string,
  changes: RowChanges,
): Promise<SaveResult> {
  await tx.$executeRawUnsafe('SAVEPOINT trial_save');
  // Inside the savepoint: the trial's mark goes with its writes.
  await declareRequestWrite(tx, {
    changeRequestId,
    tableName: table.name,
    approvedBy: null,
    kind: 'save',
  });
  const result = await applyChanges(tx, table, changes);
  await tx.$executeRawUnsafe('ROLLBACK TO SAVEPOINT trial_save');
  return result;
}
