import type { TransactionClient } from '@tablelock/db';
import { declareOwnWrite } from '../guard/ownWrite';
import { applyChanges, type RowChanges, type SaveResult } from '../saveRows';
import type { MasterTable } from '../tableColumns';

/**
 * What saving `changes` under the lock's `token` would do today, found by writing them in the
 * caller's transaction and rolling them back: the grid save's own checks (row versions, NOT
 * NULL, CHECK, UNIQUE, foreign keys), nothing kept. Submitting a request and reviewing it
 * check it this way.
 */
export async function trialSave(
  tx: TransactionClient,
  table: MasterTable,
  token: string,
  changes: RowChanges,
): Promise<SaveResult> {
  await declareOwnWrite(tx, { tableName: table.name, token, kind: 'save' });
  await tx.$executeRawUnsafe('SAVEPOINT trial_save');
  const result = await applyChanges(tx, table, changes);
  await tx.$executeRawUnsafe('ROLLBACK TO SAVEPOINT trial_save');
  return result;
}
