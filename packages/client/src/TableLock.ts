import type {
  ClientSubmitChangeRequestMutation,
  RowChanges,
  SaveRowsMutation,
} from './generated/graphql';
import type { ImportOptions, ImportResult } from './importFile';
import type { SqlConnection } from './useLockIn';

/** What a save did: all or nothing; `rowErrors` say why not (ROW_CONFLICT, NOT_NULL, ...). */
export type SaveResult = SaveRowsMutation['saveRows'];

/** A table's changes for another person to approve: the grid's changes, or an import's dry run. */
export interface ApprovalRequest {
  changes?: RowChanges;
  /** An import's dry run (without errors) made under this lock, instead of `changes`. */
  importDryRunId?: string;
  comment?: string;
  /** Hand the lock back to the author after approval instead of releasing it. */
  keepEditing?: boolean;
}

/** `submitted`, with the request (waitForDecision waits for it); else the rows that would not save. */
export type SubmitResult = ClientSubmitChangeRequestMutation['submitChangeRequest'];

export type { RowChanges };

/** The lock withTableLock holds while its callback runs. */
export interface TableLock {
  /** The fencing token of each table held, by table name. */
  readonly tokens: Readonly<Record<string, string>>;
  /**
   * Aborts the moment the lock is lost (its reason: a TablelockError LOCK_LOST saying how and by
   * whom), or when the work should stop: the caller's signal aborted, or the process got SIGINT
   * or SIGTERM (an AbortError).
   */
  readonly signal: AbortSignal;
  /** Writes rows of `table`, one of the tables held, behind its fencing token. */
  saveRows(table: string, changes: RowChanges): Promise<SaveResult>;
  /**
   * Shows the lock to the write guard in `db`'s current transaction (`tablelock.use_lock` for each
   * table held), so that the job's own SQL writes pass. After BEGIN, before writing.
   */
  useIn(db: SqlConnection): Promise<void>;
  /** Imports a CSV or XLSX file into `table`, one of the tables held: a dry run unless asked. */
  importFile(table: string, path: string, options?: ImportOptions): Promise<ImportResult>;
  /**
   * On a table that needs approval: makes `request` a change request. Once submitted, the lock
   * of `table` waits with the request: it is renewed and released no more by this hold.
   */
  submitForApproval(table: string, request: ApprovalRequest): Promise<SubmitResult>;
}
