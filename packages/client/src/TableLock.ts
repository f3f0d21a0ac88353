import type { RowChanges, SaveRowsMutation } from './generated/graphql';

/** What a save did: all or nothing; `rowErrors` say why not (ROW_CONFLICT, NOT_NULL, ...). */
export type SaveResult = SaveRowsMutation['saveRows'];

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
}
