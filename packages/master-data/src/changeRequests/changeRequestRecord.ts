import type { ChangeRequest as StoredRequest } from '@tablelock/db';
import type { RowValues } from '../readRows';
import type { RowChanges } from '../saveRows';
import type { ChangeRequestState } from './core/changeRequestState';

/** One row of a change request's diff: what it does, to which row, old → new. */
export interface ChangeRequestRow {
  action: 'insert' | 'update' | 'delete';
  /** The row's primary key; for an insert, the key columns given (if any). */
  key: RowValues | null;
  /** The row version (`xmin`) the change was made against; null for an insert. */
  version: string | null;
  /** The changed columns' values before (the whole row for a delete); null for an insert. */
  oldValues: RowValues | null;
  /** The values the change writes; null for a delete. */
  newValues: RowValues | null;
}

/** A row that kept an approval from applying: which, and why. */
export interface ChangedRequestRow {
  action: ChangeRequestRow['action'];
  key: RowValues | null;
  code: string;
  message: string;
}

/** A change request as readers see it. */
export interface ChangeRequestRecord {
  id: string;
  tableName: string;
  state: ChangeRequestState;
  author: string;
  submittedBy: string;
  submitters: string[];
  /** The lock's token the request carries (the author's again once the request hands it back). */
  token: string;
  comment: string | null;
  changes: RowChanges;
  rows: ChangeRequestRow[];
  rowCount: number;
  keepEditing: boolean;
  submittedAt: Date;
  decidedBy: string | null;
  decidedAt: Date | null;
  decisionComment: string | null;
  changedRows: ChangedRequestRow[] | null;
  changeSetId: string | null;
  /** The import dry run it carries instead of `changes`. */
  importDryRunId: string | null;
  /** When it takes effect; null: at its approval. */
  effectiveAt: Date | null;
  appliedAt: Date | null;
  failedAt: Date | null;
  /** How long after effectiveAt the scheduler applied it, or found it could not. */
  lateBySeconds: number | null;
  failure: ScheduleFailure | null;
  /** The edition it is applied with. */
  editionId: string | null;
}

/** Why a scheduled request could not apply at its time; nothing was written. */
export interface ScheduleFailure {
  /** ROWS_CHANGED (rows changed since, or the save refused them), TABLE_HELD, or REFUSED. */
  reason: 'ROWS_CHANGED' | 'TABLE_HELD' | 'REFUSED';
  message: string;
  rows: ChangedRequestRow[];
  /** TABLE_HELD: who held the table when the wait ended. */
  holder: string | null;
}

export function changeRequestOf(stored: StoredRequest): ChangeRequestRecord {
  return {
    id: stored.id.toString(),
    tableName: stored.tableName,
    state: stored.state,
    author: stored.author,
    submittedBy: stored.submittedBy,
    submitters: stored.submitters,
    token: stored.token.toString(),
    comment: stored.comment,
    changes: stored.changes as RowChanges,
    rows: stored.rows as unknown as ChangeRequestRow[],
    rowCount: stored.rowCount,
    keepEditing: stored.keepEditing,
    submittedAt: stored.submittedAt,
    decidedBy: stored.decidedBy,
    decidedAt: stored.decidedAt,
    decisionComment: stored.decisionComment,
    changedRows: stored.changedRows as ChangedRequestRow[] | null,
    changeSetId: stored.changeSetId?.toString() ?? null,
    importDryRunId: stored.importDryRunId,
    effectiveAt: stored.effectiveAt,
    appliedAt: stored.appliedAt,
    failedAt: stored.failedAt,
    lateBySeconds: stored.lateBySeconds,
    failure: stored.failure as ScheduleFailure | null,
    editionId: stored.editionId?.toString() ?? null,
  };
}
