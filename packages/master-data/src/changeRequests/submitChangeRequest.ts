import { inTransaction, type Queryable } from '@tablelock/db';
import {
  assertHoldsLock,
  moveLockToChangeRequest,
  parseFencingToken,
  recordLockEvent,
} from '@tablelock/lock';
import { readImportReport } from '../import/readImportReport';
import { MasterDataError } from '../masterDataError';
import { type RowChanges, type RowError, validRowChanges } from '../saveRows';
import { readMasterTable } from '../tableColumns';
import { trialSave } from '../trialSave';
import { type ChangeRequestRecord, changeRequestOf } from './changeRequestRecord';
import { importDiff } from './importDiff';
import { requestDiff } from './requestDiff';

export interface SubmitRequest {
  schema: string;
  tableName: string;
  /** The lock's editor, whose changes these are. */
  author: string;
  /** The fencing token of the author's acquisition. */
  token: string;
  /** The grid's changes, or (`importDryRunId`) an import's dry run: one of the two. */
  changes: RowChanges | null;
  importDryRunId: string | null;
  comment: string | null;
  /** Hand the lock back to the author after approval instead of releasing it. */
  keepEditing: boolean;
  /** Who submits (a user, or a key acting for the author) and the people behind them. */
  submittedBy: string;
  submitters: string[];
}

export interface SubmitResult {
  submitted: boolean;
  request: ChangeRequestRecord | null;
  /** Why rows would not save against today's data; nothing was submitted when there are any. */
  rowErrors: RowError[];
}

const MAX_COMMENT = 2000;

/**
 * Makes the author's pending changes, or their import's dry run, a change request, for the
 * lock's holder only (LOCK_LOST otherwise). Grid changes are tried against today's data and
 * rolled back: a request that could not apply is not submitted, and its row errors say why (a
 * dry run is that check already; one with errors is IMPORT_HAS_ERRORS). The lock then moves to the request:
 * a new fencing token that only the request knows, no lease (neither expiry nor the idle limit
 * ends it), the author still its editor, so nobody else starts editing.
 */
export async function submitChangeRequest(
  db: Queryable,
  request: SubmitRequest,
): Promise<SubmitResult> {
  const { tableName, author } = request;
  const token = parseFencingToken(request.token);
  const comment = validComment(request.comment);
  if ((request.changes === null) === (request.importDryRunId === null)) {
    throw new MasterDataError('BAD_USER_INPUT', 'Submit either changes or an importDryRunId.');
  }
  const table = await readMasterTable(db, request.schema, tableName);
  const changes = request.changes ? validRowChanges(table, request.changes) : {};
  const dryRun = request.importDryRunId
    ? await submittableDryRun(db, request.importDryRunId, author, token)
    : null;
  return inTransaction(db, async (tx) => {
    const held = await assertHoldsLock(tx, { tableName, editor: author, token });
    if (held.rows !== null) {
      throw new MasterDataError(
        'BAD_USER_INPUT',
        `Token ${token} is a row scope of ${tableName}: a change request holds the whole table until it is decided. Take the whole table to submit one; nothing was submitted.`,
      );
    }
    if (dryRun && dryRun.tableName !== tableName) {
      throw new MasterDataError('BAD_USER_INPUT', `That dry run is of ${dryRun.tableName}.`);
    }
    const rows = dryRun ? await importDiff(tx, dryRun.id) : await requestDiff(tx, table, changes);
    if (rows.length === 0) {
      throw new MasterDataError('BAD_USER_INPUT', 'A change request needs changes.');
    }
    // The lock moves to the request first: on a table that needs approval, only a pending
    // request's own writes pass the write guard, and the check below is one.
    await tx.$executeRawUnsafe('SAVEPOINT change_request_submission');
    const movedToken = await moveLockToChangeRequest(tx, tableName, token);
    if (movedToken === null) throw new Error(`the lock on ${tableName} moved under its share lock`);
    const stored = await tx.changeRequest.create({
      data: {
        tableName,
        author,
        submittedBy: request.submittedBy,
        submitters: [...new Set([author, ...request.submitters])],
        token: movedToken,
        comment,
        changes: changes as object,
        rows: rows as object[],
        rowCount: rows.length,
        keepEditing: request.keepEditing,
        importDryRunId: dryRun?.id ?? null,
      },
    });
    if (dryRun) {
      // The dry run follows the lock: only the request's token applies it.
      await tx.$executeRaw`
        UPDATE tablelock.import_dry_run SET token = ${movedToken} WHERE id = ${dryRun.id}::uuid`;
    } else {
      const check = await trialSave(tx, table, { changeRequestId: stored.id.toString() }, changes);
      if (!check.saved) {
        await tx.$executeRawUnsafe('ROLLBACK TO SAVEPOINT change_request_submission');
        return { submitted: false, request: null, rowErrors: check.rowErrors };
      }
    }
    await recordLockEvent(tx, {
      action: 'request_submitted',
      tableName,
      actor: request.submittedBy,
      editor: author,
      token: movedToken.toString(),
      reason: comment,
      rowsChanged: rows.length,
      details: { changeRequestId: stored.id.toString() },
    });
    return { submitted: true, request: changeRequestOf(stored), rowErrors: [] };
  });
}

/** The author's dry run, made under this lock and without errors, else why not. */
async function submittableDryRun(db: Queryable, id: string, author: string, token: string) {
  const report = await readImportReport(db, id, author);
  if (report.token !== token) {
    throw new MasterDataError(
      'BAD_USER_INPUT',
      'This dry run was made under an earlier lock of the table; run it again.',
    );
  }
  if (report.counts.error > 0) {
    throw new MasterDataError(
      'IMPORT_HAS_ERRORS',
      `${report.counts.error} rows of the file have errors; correct them and run the dry run again.`,
      { errorRows: report.counts.error },
    );
  }
  return report;
}

/** A comment within bounds (blank is none), else BAD_USER_INPUT. */
export function validComment(comment: string | null | undefined): string | null {
  const trimmed = comment?.trim() ?? '';
  if (trimmed.length > MAX_COMMENT) {
    throw new MasterDataError('BAD_USER_INPUT', `A comment has at most ${MAX_COMMENT} characters.`);
  }
  return trimmed === '' ? null : trimmed;
}
