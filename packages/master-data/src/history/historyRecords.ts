import type { RowValues } from '../readRows';

export type ChangeKind =
  | 'save'
  | 'import'
  | 'revert'
  | 'locked_write'
  | 'unlocked_write'
  | 'scheduled';
export type RowOperation = 'insert' | 'update' | 'delete';

/** Everything one transaction changed in one table (`tablelock.change_set`). */
export interface ChangeSetRecord {
  id: string;
  tableName: string;
  kind: ChangeKind;
  token: string | null;
  actor: string | null;
  dbRole: string;
  applicationName: string | null;
  revertsChangeId: string | null;
  at: Date;
  rowsInserted: number;
  rowsUpdated: number;
  rowsDeleted: number;
  /** Who approved it, when it applied a change request (`changeRequestId`). */
  approvedBy: string | null;
  changeRequestId: string | null;
  /** Written under a row scope's token: the scope's values of the row-lock column. */
  rowScope: string[] | null;
  /** An unlocked write's: the tokens of the row scopes whose rows it wrote. */
  brokenScopes: string[] | null;
}

/** One row's change (`tablelock.row_change`), values as text as `rows` returns them. */
export interface RecordedRowChange {
  id: string;
  key: RowValues;
  operation: RowOperation;
  /** update: the changed columns' old values; delete: the whole row; insert: null. */
  oldValues: RowValues | null;
  /** update: the changed columns' new values; insert: the whole row; delete: null. */
  newValues: RowValues | null;
}

export interface RowChangeRecord extends RecordedRowChange {
  changeSet: ChangeSetRecord;
}
