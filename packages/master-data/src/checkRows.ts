import { inTransaction, type Queryable } from '@tablelock/db';
import { assertHoldsLock, explainLockEndedInDatabase, parseFencingToken } from '@tablelock/lock';
import { assertApprovalGiven } from './changeRequests/approvalRequired';
import { type RowError, type SaveRequest, validRowChanges } from './saveRows';
import { readMasterTable } from './tableColumns';
import { trialSave } from './trialSave';

/** What saving pending changes would do today. */
export interface RowCheck {
  /** Saving them now would write every one. */
  valid: boolean;
  /** How many changes were tried: all of them, within saveRows's bound. */
  rowsChecked: number;
  /** Every change the save would refuse, as saveRows reports them. */
  rowErrors: RowError[];
}

/**
 * The lock holder's pending changes tried against the table as it is now, the way saveRows
 * would write them (trialSave: written under the holder's token and rolled back), so that the
 * grid shows every refused row at once before the save: the database stops a real save at each
 * row's first refusal too, but a grid edited row by row learns of one problem per save. The
 * same checks as a save before it (shape and bounds, the token holds the table, the table's
 * policy lets changes through without approval): LOCK_LOST, BAD_USER_INPUT, APPROVAL_REQUIRED.
 */
export async function checkRows(db: Queryable, request: SaveRequest): Promise<RowCheck> {
  const { schema, tableName, holder } = request;
  const token = parseFencingToken(request.token);
  const table = await readMasterTable(db, schema, tableName);
  const changes = validRowChanges(table, request.changes);
  const rowsChecked =
    (changes.inserts?.length ?? 0) +
    (changes.updates?.length ?? 0) +
    (changes.deletes?.length ?? 0);
  return inTransaction(db, async (tx) => {
    await assertHoldsLock(tx, { tableName, editor: holder, token });
    await assertApprovalGiven(tx, tableName, undefined);
    const trial = await trialSave(tx, table, { token }, changes);
    return { valid: trial.rowErrors.length === 0, rowsChecked, rowErrors: trial.rowErrors };
  }).catch(async (error: unknown) => {
    throw await explainLockEndedInDatabase(db, error, tableName, token);
  });
}
