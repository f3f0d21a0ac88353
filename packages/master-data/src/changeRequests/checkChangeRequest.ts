import { inTransaction, type Queryable, type TransactionClient } from '@tablelock/db';
import type { RowErrorDetails } from '../errors/rowErrorDetails';
import type { RowValues } from '../readRows';
import type { RowChanges, RowError, RowErrorCode } from '../saveRows';
import { type MasterTable, readMasterTable } from '../tableColumns';
import { trialSave } from '../trialSave';
import type { ChangeRequestRecord, ChangeRequestRow } from './changeRequestRecord';
import { readRowValues } from './readRowValues';

/** Why a row of a pending request would keep its approval from applying today. */
export interface RequestRowProblem {
  /** The row's place in the request's `rows`. */
  index: number;
  /** ROW_CHANGED or ROW_DELETED since submission, or what the save would refuse. */
  code: 'ROW_CHANGED' | 'ROW_DELETED' | Exclude<RowErrorCode, 'ROW_CONFLICT'>;
  column: string | null;
  message: string;
  details: RowErrorDetails;
  /** ROW_CHANGED: today's values of the columns the request changes (the whole row for a delete). */
  currentValues: RowValues | null;
}

/** How a pending request stands against the table as it is now. */
export interface RequestCheck {
  /** Approving now would write every row checked. */
  applies: boolean;
  /** How many of its rows were checked: the first MAX_CHECKED_ROWS. */
  rowsChecked: number;
  problems: RequestRowProblem[];
}

/** A check is a trial save: the grid's bound on one save keeps it as quick as one. */
export const MAX_CHECKED_ROWS = 1000;

/**
 * A pending request's rows tried against today's data, the way its approval would write them
 * (trialSave: written and rolled back), so that an approver sees before approving which rows
 * changed or were deleted since submission, and which new values the table's rules now refuse
 * (a referenced row deleted since, say). Null for a request that is no longer pending.
 */
export async function checkChangeRequest(
  db: Queryable,
  schema: string,
  request: ChangeRequestRecord,
): Promise<RequestCheck | null> {
  // A request with an effective time carries no lock to try it under: the scheduler checks it
  // at its time.
  if (request.state !== 'pending' || request.effectiveAt) return null;
  const table = await readMasterTable(db, schema, request.tableName);
  const checked = request.rows.slice(0, MAX_CHECKED_ROWS);
  const { changes, indexOf } = changesOf(table, checked, request.importDryRunId !== null);
  return inTransaction(db, async (tx) => {
    // Shared with the decision's FOR UPDATE: the request stays pending, and its token current,
    // while it is tried.
    const [pending] = await tx.$queryRaw<{ id: bigint }[]>`
      SELECT id FROM tablelock.change_request
      WHERE id = ${request.id}::bigint AND state = 'pending' FOR SHARE`;
    if (!pending) return null;
    const trial = await trialSave(tx, table, { changeRequestId: request.id }, changes);
    const problems = await Promise.all(
      trial.rowErrors.map((error) => {
        const index = indexOf(error);
        return problemOf(tx, table, index, checked[index] as ChangeRequestRow, error);
      }),
    );
    problems.sort((a, b) => a.index - b.index);
    return { applies: problems.length === 0, rowsChecked: checked.length, problems };
  });
}

/**
 * The rows as one save's changes (a scheduled request is applied this way too), and the way back from a row error to the row. An import's
 * new row leaves out its empty cells of columns with a default, as the import's apply does.
 */
export function changesOf(table: MasterTable, rows: ChangeRequestRow[], fromImport: boolean) {
  const places = { insert: [] as number[], update: [] as number[], delete: [] as number[] };
  const changes: Required<{ [K in keyof RowChanges]: NonNullable<RowChanges[K]> }> = {
    inserts: [],
    updates: [],
    deletes: [],
  };
  const defaulted = new Set(table.columns.filter((c) => c.hasDefault).map((c) => c.name));
  for (const [index, row] of rows.entries()) {
    places[row.action].push(index);
    const key = row.key ?? {};
    const values = row.newValues ?? {};
    if (row.action === 'delete') changes.deletes.push({ key, version: row.version ?? '0' });
    if (row.action === 'update') {
      changes.updates.push({ key, version: row.version ?? '0', values });
    }
    if (row.action === 'insert') {
      const given = Object.entries(values).filter(
        ([name, value]) => !(fromImport && value === null && defaulted.has(name)),
      );
      changes.inserts.push({ values: Object.fromEntries(given) });
    }
  }
  const indexOf = (error: RowError) => places[error.change][error.index] as number;
  return { changes, indexOf };
}

export async function problemOf(
  tx: TransactionClient,
  table: MasterTable,
  index: number,
  row: ChangeRequestRow,
  error: RowError,
): Promise<RequestRowProblem> {
  const at = { index, column: error.column, details: error.details, currentValues: null };
  if (error.code !== 'ROW_CONFLICT') return { ...at, code: error.code, message: error.message };
  const today = await readRowValues(tx, table, row.key ?? {});
  if (!today) {
    return {
      ...at,
      code: 'ROW_DELETED',
      message: 'This row was deleted since the request was submitted.',
    };
  }
  const changed = row.action === 'update' ? Object.keys(row.newValues ?? {}) : Object.keys(today);
  return {
    ...at,
    code: 'ROW_CHANGED',
    message: 'This row changed since the request was submitted.',
    currentValues: Object.fromEntries(changed.map((name) => [name, today[name] ?? null])),
  };
}
