import type { TransactionClient } from '@tablelock/db';
import { type LockError, recordLockEvent } from '@tablelock/lock';
import { fencedSave, type SaveCounts } from '../fencedSave';
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

/** The editor a scheduled request takes its table as. */
export const scheduleEditor = (id: string) => `schedule:${id}`;

/** What writing a scheduled request did: its counts, or the rows that kept it from saving. */
export type ScheduledWrite =
  | { saved: true; counts: SaveCounts }
  | { saved: false; rows: ChangedRequestRow[] };

/**
 * Writes a scheduled request at its time under the lock `token` taken for it, in the caller's
 * transaction: every row checked against the version it was made on, by the fenced save and the
 * write guard. The request's mark holds under that lock (the guard's only way in on a table that
 * needs approval) and makes the change set's kind `scheduled`. Nothing is written when a row
 * fails; the rows say why.
 */
export async function writeScheduledRequest(
  tx: TransactionClient,
  schema: string,
  request: ChangeRequestRecord,
  editor: string,
  token: string,
): Promise<ScheduledWrite> {
  const { tableName } = request;
  await tx.changeRequest.update({
    where: { id: BigInt(request.id) },
    data: { token: BigInt(token) },
  });
  const table = await readMasterTable(tx, schema, tableName);
  const { changes, indexOf } = changesOf(table, request.rows, request.importDryRunId !== null);
  const result = await fencedSave(
    tx,
    {
      tableName,
      holder: editor,
      token,
      reason: `change request ${request.id} at its time`,
      approval: { changeRequestId: request.id, approvedBy: request.decidedBy ?? editor },
    },
    (inner) => applyChanges(inner, table, changes),
  );
  if (result.saved) return { saved: true, counts: result };
  const rows = await Promise.all(
    result.rowErrors.map(async (error) => {
      const index = indexOf(error);
      const row = request.rows[index] as ChangeRequestRow;
      const problem = await problemOf(tx, table, index, row, error);
      return { action: row.action, key: row.key, code: problem.code, message: problem.message };
    }),
  );
  return { saved: false, rows };
}

/** The failure of rows that changed since submission, or no longer save. */
export function rowsFailure(rows: ChangedRequestRow[], prefix = ''): ScheduleFailure {
  return {
    reason: 'ROWS_CHANGED',
    message: `${prefix}Rows changed since the request was submitted, or no longer save: ${rows
      .map((row) => `${JSON.stringify(row.key)} (${row.message})`)
      .join('; ')}. Nothing was written.`,
    rows,
    holder: null,
  };
}

export async function markApplied(
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

export async function markFailed(
  tx: TransactionClient,
  request: ChangeRequestRecord,
  failure: ScheduleFailure,
): Promise<ChangeRequestRecord> {
  await tx.$executeRaw`
    UPDATE tablelock.change_request
    SET state = 'failed', failed_at = clock_timestamp(), failure = ${JSON.stringify(failure)}::jsonb,
        decided_at = coalesce(decided_at, clock_timestamp()),
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

export async function reread(tx: TransactionClient, id: string): Promise<ChangeRequestRecord> {
  return changeRequestOf(await tx.changeRequest.findUniqueOrThrow({ where: { id: BigInt(id) } }));
}

/** The failure of a wait for the tables that ended without them: who held them, if known. */
export function failureOfWait(tableName: string, error: LockError): ScheduleFailure {
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
