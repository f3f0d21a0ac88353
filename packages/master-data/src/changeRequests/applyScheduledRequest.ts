import { inTransaction, type Queryable, type TransactionClient } from '@tablelock/db';
import { LockError, recordLockEvent, releaseTableLock } from '@tablelock/lock';
import { fencedSave } from '../fencedSave';
import { currentChangeSetId } from '../guard/ownWrite';
import { applyChanges } from '../saveRows';
import { readMasterTable } from '../tableColumns';
import {
  type ChangedRequestRow,
  type ChangeRequestRecord,
  type ChangeRequestRow,
  changeRequestOf,
  type ScheduleFailure,
} from './changeRequestRecord';
import { changesOf, problemOf } from './checkChangeRequest';

export interface ScheduledRun {
  schema: string;
  id: string;
  /**
   * Who runs it: the API process's LISTEN connection's application_name. Its claim on the
   * request lasts while that connection does; another process takes a request over only then.
   */
  claimant: string;
  /**
   * Takes the table for `editor` (through the line: it waits while the table is held) and
   * answers the fencing token; a LockError when the wait ends without it.
   */
  takeTable: (tableName: string, editor: string) => Promise<string>;
}

/** The editor a scheduled request takes its table as. */
export const scheduleEditor = (id: string) => `schedule:${id}`;

/**
 * Applies a scheduled request whose time has come, exactly once across API processes: claimed
 * by one process, then taken through the fair line as the editor `schedule:<id>`, then, in one
 * transaction that holds the request's row and finds it still scheduled, every row checked
 * against the version it was made on and written through the fenced save and the write guard
 * (kind `scheduled`, naming the request), the request moved to `applied`, and the lock released.
 * If a row changed since or the save refuses it, nothing is written: the request is `failed`
 * with the rows and reasons. So too if the wait for the table ends (SCHEDULE_MAX_DELAY), naming
 * who held it. Answers the request as it ends; null when there was nothing to do (not due, not
 * scheduled, or claimed by another live process).
 */
export async function applyScheduledRequest(
  db: Queryable,
  run: ScheduledRun,
): Promise<ChangeRequestRecord | null> {
  const claimed = await claim(db, run);
  if (!claimed) return null;
  const editor = scheduleEditor(run.id);
  let token: string;
  try {
    token = await run.takeTable(claimed.tableName, editor);
  } catch (error) {
    if (!(error instanceof LockError)) throw error;
    return failUnheld(db, run.id, failureOfWait(claimed.tableName, error));
  }
  try {
    return await inTransaction(db, (tx) => applyUnderLock(tx, run, editor, token), {
      timeout: 120_000,
    });
  } finally {
    // Released with the application's commit; this only ends a lock left by a failed one.
    await releaseTableLock(db, { tableName: claimed.tableName, editor, token }).catch(() => {});
  }
}

/** Claims a due, scheduled request for this process, unless a live process has claimed it. */
async function claim(db: Queryable, run: ScheduledRun): Promise<{ tableName: string } | null> {
  if (!/^\d{1,18}$/.test(run.id)) return null;
  const [claimed] = await db.$queryRaw<{ tableName: string }[]>`
    UPDATE tablelock.change_request AS r SET claimed_by = ${run.claimant}
    WHERE r.id = ${run.id}::bigint AND r.state = 'scheduled' AND r.effective_at <= clock_timestamp()
      AND (r.claimed_by IS NULL OR r.claimed_by = ${run.claimant}
           OR NOT EXISTS (SELECT 1 FROM pg_stat_activity AS a
                          WHERE a.application_name = r.claimed_by))
    RETURNING r.table_name AS "tableName"`;
  return claimed ?? null;
}

async function applyUnderLock(
  tx: TransactionClient,
  run: ScheduledRun,
  editor: string,
  token: string,
): Promise<ChangeRequestRecord | null> {
  const request = await scheduledRequest(tx, run.id);
  if (!request) return null;
  const { tableName } = request;
  // The request's mark holds under the lock taken for it (the write guard's only way in on a
  // table that needs approval), and makes the change set's kind `scheduled`.
  await tx.changeRequest.update({ where: { id: BigInt(run.id) }, data: { token: BigInt(token) } });
  const table = await readMasterTable(tx, run.schema, tableName);
  const { changes, indexOf } = changesOf(table, request.rows, request.importDryRunId !== null);
  const result = await fencedSave(
    tx,
    {
      tableName,
      holder: editor,
      token,
      reason: `change request ${run.id} at its time`,
      approval: { changeRequestId: run.id, approvedBy: request.decidedBy ?? editor },
    },
    (inner) => applyChanges(inner, table, changes),
  );
  let ended: ChangeRequestRecord;
  if (result.saved) {
    ended = await markApplied(tx, request, editor, token, result);
  } else {
    const rows = await Promise.all(
      result.rowErrors.map(async (error) => {
        const index = indexOf(error);
        const row = request.rows[index] as ChangeRequestRow;
        const problem = await problemOf(tx, table, index, row, error);
        return { action: row.action, key: row.key, code: problem.code, message: problem.message };
      }),
    );
    ended = await markFailed(tx, request, {
      reason: 'ROWS_CHANGED',
      message: `Rows changed since the request was submitted, or no longer save: ${rows
        .map((row) => `${JSON.stringify(row.key)} (${row.message})`)
        .join('; ')}. Nothing was written.`,
      rows,
      holder: null,
    });
  }
  const released = await releaseTableLock(tx, {
    tableName,
    editor,
    token,
    reason: `change request ${run.id} ${ended.state}`,
  });
  if ('refused' in released) throw new Error(`the lock of ${tableName} was not released`);
  return ended;
}

/** The request, its row held to the end of the transaction, if it is still scheduled. */
async function scheduledRequest(
  tx: TransactionClient,
  id: string,
): Promise<ChangeRequestRecord | null> {
  const [row] = await tx.$queryRaw<{ id: bigint }[]>`
    SELECT id FROM tablelock.change_request
    WHERE id = ${id}::bigint AND state = 'scheduled' FOR UPDATE`;
  if (!row) return null;
  return changeRequestOf(await tx.changeRequest.findUniqueOrThrow({ where: { id: row.id } }));
}

async function markApplied(
  tx: TransactionClient,
  request: ChangeRequestRecord,
  editor: string,
  token: string,
  counts: { inserted: number; updated: number; deleted: number },
): Promise<ChangeRequestRecord> {
  const changeSetId = await currentChangeSetId(tx, request.tableName);
  await tx.$executeRaw`
    UPDATE tablelock.change_request
    SET state = 'applied', applied_at = clock_timestamp(), change_set_id = ${changeSetId}::bigint,
        late_by_seconds = greatest(0, floor(extract(epoch FROM clock_timestamp() - effective_at)))::int
    WHERE id = ${request.id}::bigint`;
  await recordLockEvent(tx, {
    action: 'request_applied',
    tableName: request.tableName,
    actor: editor,
    editor: request.author,
    token,
    rowsChanged: counts.inserted + counts.updated + counts.deleted,
    details: { changeRequestId: request.id, changeSetId },
  });
  return reread(tx, request.id);
}

async function markFailed(
  tx: TransactionClient,
  request: ChangeRequestRecord,
  failure: ScheduleFailure,
): Promise<ChangeRequestRecord> {
  await tx.$executeRaw`
    UPDATE tablelock.change_request
    SET state = 'failed', failed_at = clock_timestamp(), failure = ${JSON.stringify(failure)}::jsonb,
        late_by_seconds = greatest(0, floor(extract(epoch FROM clock_timestamp() - effective_at)))::int
    WHERE id = ${request.id}::bigint`;
  await recordLockEvent(tx, {
    action: 'request_failed',
    tableName: request.tableName,
    actor: scheduleEditor(request.id),
    editor: request.author,
    token: request.token,
    reason: failure.message,
    details: { changeRequestId: request.id, reason: failure.reason, holder: failure.holder },
  });
  return reread(tx, request.id);
}

/** The wait for the table ended without it: the request fails, if it is still scheduled. */
async function failUnheld(
  db: Queryable,
  id: string,
  failure: ScheduleFailure,
): Promise<ChangeRequestRecord | null> {
  return inTransaction(db, async (tx) => {
    const request = await scheduledRequest(tx, id);
    return request ? markFailed(tx, request, failure) : null;
  });
}

function failureOfWait(tableName: string, error: LockError): ScheduleFailure {
  const blockers = (error.details.blockers as { editor?: string }[] | undefined) ?? [];
  const holder = blockers.map((blocker) => blocker.editor).find(Boolean) ?? null;
  const timedOut = error.code === 'LOCK_WAIT_TIMEOUT';
  return {
    reason: timedOut ? 'TABLE_HELD' : 'REFUSED',
    message: timedOut
      ? `${tableName} was still held at the end of the wait${holder ? ` by ${holder}` : ''}: ${error.message}`
      : error.message,
    rows: [] as ChangedRequestRow[],
    holder,
  };
}

async function reread(tx: TransactionClient, id: string): Promise<ChangeRequestRecord> {
  return changeRequestOf(await tx.changeRequest.findUniqueOrThrow({ where: { id: BigInt(id) } }));
}
