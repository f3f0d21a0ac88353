import { inTransaction, type Queryable, type TransactionClient } from '@tablelock/db';
import {
  assertHoldsLock,
  moveLockToChangeRequest,
  parseFencingToken,
  recordLockEvent,
  releaseTableLock,
} from '@tablelock/lock';
import { joinEdition } from '../editions/joinEdition';
import { assertRowsOnceInEdition } from '../editions/rowsOnceInEdition';
import { readImportReport } from '../import/readImportReport';
import { MasterDataError } from '../masterDataError';
import { type RowChanges, type RowError, validRowChanges } from '../saveRows';
import { readMasterTable } from '../tableColumns';
import { trialSave } from '../trialSave';
import { type ChangeRequestRecord, changeRequestOf } from './changeRequestRecord';
import { validEffectiveAt } from './effectiveTime';
import { requestDiff } from './requestDiff';
import { storeImportDiff } from './storeImportDiff';

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
  /**
   * Hand the lock back to the author after approval instead of releasing it; with
   * `effectiveAt`, keep it at submission instead of releasing it.
   */
  keepEditing: boolean;
  /** Who submits (a user, or a key acting for the author) and the people behind them. */
  submittedBy: string;
  submitters: string[];
  /** When the changes take effect (the scheduler applies them then); none: at approval. */
  effectiveAt?: Date | null;
  /** The edition it joins: it takes effect at the edition's time, applied with the edition. */
  editionId?: string | null;
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
 *
 * With `effectiveAt` the request is scheduled instead (decision 0023): it never carries the
 * lock, which is released at once (kept, with `keepEditing`), so others go on editing; it is
 * `scheduled` at once, or `pending` until approved where the table's policy needs approval,
 * and the scheduler applies it at its time. A table has at most one request waiting for
 * approval (the one pending index), scheduled or not.
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
    const asked = request.effectiveAt
      ? validEffectiveAt(request.effectiveAt, await databaseNow(tx))
      : null;
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
    // A dry run's rows are stored from where they are (storeImportDiff), never read out here.
    const rows = dryRun ? [] : await requestDiff(tx, table, changes);
    const rowCount = dryRun ? dryRun.counts.create + dryRun.counts.update : rows.length;
    if (rowCount === 0) {
      throw new MasterDataError('BAD_USER_INPUT', 'A change request needs changes.');
    }
    const effectiveAt = request.editionId ? await joinEdition(tx, request.editionId, asked) : asked;
    const needsApproval = effectiveAt ? await changesNeedApproval(tx, tableName) : false;
    if (effectiveAt && needsApproval) await assertNoneWaitsForApproval(tx, tableName);
    // The lock moves to the request first: on a table that needs approval, only a pending
    // request's own writes pass the write guard, and the check below is one. A scheduled
    // request's check writes under its author's token, which it is made under.
    await tx.$executeRawUnsafe('SAVEPOINT change_request_submission');
    const movedToken = effectiveAt
      ? BigInt(token)
      : await moveLockToChangeRequest(tx, tableName, token);
    if (movedToken === null) throw new Error(`the lock on ${tableName} moved under its share lock`);
    const scheduledAtOnce = effectiveAt !== null && !needsApproval;
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
        rowCount,
        keepEditing: request.keepEditing,
        importDryRunId: dryRun?.id ?? null,
        effectiveAt,
        editionId: request.editionId ? BigInt(request.editionId) : null,
        ...(scheduledAtOnce ? { state: 'scheduled', decidedAt: new Date() } : {}),
      },
    });
    const rowsChanged = dryRun ? await storeImportDiff(tx, stored.id, dryRun.id) : rowCount;
    if (request.editionId) {
      await assertRowsOnceInEdition(tx, request.editionId, tableName, stored.id);
    }
    if (dryRun && !effectiveAt) {
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
      rowsChanged,
      details: { changeRequestId: stored.id.toString() },
    });
    if (effectiveAt) {
      await leaveScheduled(tx, { ...request, effectiveAt }, stored.id.toString(), scheduledAtOnce);
    }
    const submitted = dryRun
      ? await tx.changeRequest.findUniqueOrThrow({ where: { id: stored.id } })
      : stored;
    return { submitted: true, request: changeRequestOf(submitted), rowErrors: [] };
  });
}

/** The database's clock, the one the scheduler keeps. */
async function databaseNow(tx: TransactionClient): Promise<Date> {
  const [row] = await tx.$queryRaw<{ now: Date }[]>`SELECT clock_timestamp() AS now`;
  if (!row) throw new Error('the database has no clock');
  return row.now;
}

async function changesNeedApproval(tx: TransactionClient, tableName: string): Promise<boolean> {
  const [policy] = await tx.$queryRaw<{ needed: boolean }[]>`
    SELECT changes_need_approval AS needed FROM tablelock.table_policy
    WHERE table_name = ${tableName}`;
  return policy?.needed ?? false;
}

/** The pending index allows one request waiting for approval per table: say which, if any. */
async function assertNoneWaitsForApproval(tx: TransactionClient, tableName: string) {
  const waiting = await tx.changeRequest.findFirst({ where: { tableName, state: 'pending' } });
  if (waiting) {
    throw new MasterDataError(
      'BAD_USER_INPUT',
      `Change request ${waiting.id} of ${tableName} waits for approval: a table has one request waiting for approval at a time; nothing was submitted.`,
      { changeRequestId: waiting.id.toString() },
    );
  }
}

/**
 * A scheduled request's submission ends here: it is announced as scheduled (unless it waits
 * for approval first), and the author's lock is released unless they keep editing.
 */
async function leaveScheduled(
  tx: TransactionClient,
  request: SubmitRequest,
  id: string,
  scheduled: boolean,
): Promise<void> {
  const { tableName, author } = request;
  if (scheduled) {
    await recordLockEvent(tx, {
      action: 'request_scheduled',
      tableName,
      actor: request.submittedBy,
      editor: author,
      token: request.token,
      reason: null,
      rowsChanged: null,
      details: { changeRequestId: id, effectiveAt: request.effectiveAt?.toISOString() },
    });
  }
  if (request.keepEditing) return;
  const released = await releaseTableLock(tx, {
    tableName,
    editor: author,
    token: request.token,
    actor: request.submittedBy,
    reason: `change request ${id} scheduled`,
  });
  if ('refused' in released) {
    throw new Error(`the lock of ${tableName} was not released: ${released.refused.kind}`);
  }
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
