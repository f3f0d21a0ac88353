import type { ChangeRequest as StoredRequest, TransactionClient } from '@tablelock/db';
import { type LockError, recordLockEvent } from '@tablelock/lock';
import { fencedSave, type SaveCounts } from '../fencedSave';
import { currentChangeSetId } from '../guard/ownWrite';
import { applyChanges, type RowError, type SaveResult } from '../saveRows';
import { readMasterTable } from '../tableColumns';
import { changedStoredRows } from './changedStoredRows';
import {
  type ChangedRequestRow,
  type ChangeRequestRecord,
  type ChangeRequestRow,
  changeRequestOf,
  type ScheduleFailure,
} from './changeRequestRecord';
import { changesOf, problemOf } from './checkChangeRequest';
import { writeStoredRows } from './writeStoredRows';

/** The editor a scheduled request takes its table as. */
export const scheduleEditor = (id: string) => `schedule:${id}`;

/**
 * What the scheduler reads of a request to write it and mark it: not its rows, which are written
 * from where they are stored (thousands of rows per request, each read out only to name a row
 * that did not write).
 */
export type ScheduledRequest = Pick<
  ChangeRequestRecord,
  'id' | 'tableName' | 'author' | 'token' | 'decidedBy' | 'importDryRunId'
>;

/** The columns of a stored request that make its ScheduledRequest, for a query's `select`. */
export const scheduledRequestColumns = {
  id: true,
  tableName: true,
  author: true,
  token: true,
  decidedBy: true,
  importDryRunId: true,
} as const;

export function scheduledRequestOf(
  stored: Pick<StoredRequest, keyof typeof scheduledRequestColumns>,
): ScheduledRequest {
  return { ...stored, id: stored.id.toString(), token: stored.token.toString() };
}

/** What writing a scheduled request did: its counts, or the rows that kept it from saving. */
export type ScheduledWrite =
  | { saved: true; counts: SaveCounts }
  | { saved: false; rows: ChangedRequestRow[] };

/**
 * Writes a scheduled request at its time under the lock `token` taken for it, in the caller's
 * transaction: every row checked against the version it was made on, by the fenced save and the
 * write guard; set-based from the rows as stored (writeStoredRows), and one by one only when a
 * row does not write, to name why. The request's mark holds under that lock (the guard's only
 * way in on a table that needs approval) and makes the change set's kind `scheduled`. Nothing is
 * written when a row fails; the rows say why.
 */
export async function writeScheduledRequest(
  tx: TransactionClient,
  schema: string,
  request: ScheduledRequest,
  editor: string,
  token: string,
): Promise<ScheduledWrite> {
  const { tableName } = request;
  await tx.$executeRaw`
    UPDATE tablelock.change_request SET token = ${token}::bigint WHERE id = ${request.id}::bigint`;
  const table = await readMasterTable(tx, schema, tableName);
  const fromImport = request.importDryRunId !== null;
  let failures: { index: number; row: ChangeRequestRow; error: RowError }[] = [];
  const result = await fencedSave(
    tx,
    {
      tableName,
      holder: editor,
      token,
      reason: `change request ${request.id} at its time`,
      approval: { changeRequestId: request.id, approvedBy: request.decidedBy ?? editor },
    },
    async (inner): Promise<SaveResult> => {
      const written = await writeStoredRows(inner, table, request.id, fromImport);
      if (written) return written;
      // Rows changed since are found at once; only a refusal needs the rows written one by one,
      // to name each row's error.
      const changed = await changedStoredRows(inner, table, request.id);
      if (changed.length > 0) {
        failures = changed.map(({ index, row }) => ({ index, row, error: conflictOf(index, row) }));
        return { ...NOTHING_SAVED, rowErrors: failures.map(({ error }) => error) };
      }
      const rows = await storedRowsOf(inner, request.id);
      const { changes, indexOf } = changesOf(table, rows, fromImport);
      const saved = await applyChanges(inner, table, changes);
      failures = saved.rowErrors.map((error) => {
        const index = indexOf(error);
        return { index, row: rows[index] as ChangeRequestRow, error };
      });
      return saved;
    },
  );
  if (result.saved) return { saved: true, counts: result };
  const rows = await Promise.all(
    failures.map(async ({ index, row, error }) => {
      const problem = await problemOf(tx, table, index, row, error);
      return { action: row.action, key: row.key, code: problem.code, message: problem.message };
    }),
  );
  return { saved: false, rows };
}

const NOTHING_SAVED: SaveResult = {
  saved: false,
  inserted: 0,
  updated: 0,
  deleted: 0,
  rowErrors: [],
  updatedVersions: [],
};

/** A row no longer at its version, as the row-by-row save finds it. */
const conflictOf = (index: number, row: ChangeRequestRow): RowError => ({
  change: row.action,
  index,
  column: null,
  code: 'ROW_CONFLICT',
  message: 'This row was changed or deleted by someone else since the request was submitted.',
  details: { kind: 'CONFLICT' },
});

async function storedRowsOf(tx: TransactionClient, id: string): Promise<ChangeRequestRow[]> {
  const stored = await tx.changeRequest.findUniqueOrThrow({
    where: { id: BigInt(id) },
    select: { rows: true },
  });
  return stored.rows as unknown as ChangeRequestRow[];
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
  request: ScheduledRequest,
  editor: string,
  token: string,
  counts: { inserted: number; updated: number; deleted: number },
): Promise<void> {
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
}

export async function markFailed(
  tx: TransactionClient,
  request: ScheduledRequest,
  failure: ScheduleFailure,
): Promise<void> {
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
