import { type ChangeFeedEvent, type ChangesOptions, readChanges } from './changeFeed';
import {
  type ChangeSetFilter,
  type HistoryPageOptions,
  type RowHistoryPage,
  readRowHistory,
  readTableChanges,
  type TableChangesPage,
} from './historyReads';
import type { ImportOptions, ImportResult } from './importFile';
import { type RowsOptions, readRows, type TableRow } from './rowReads';
import type { TableLock } from './TableLock';
import { connectToApi, type TablelockClientConfig } from './tablelockApi';
import {
  type ChangeRequestDecision,
  type WaitForDecisionOptions,
  waitForDecision,
} from './waitForDecision';
import { type WithTableLockOptions, withTableLock } from './withTableLock';

export interface TablelockClient {
  /**
   * Runs `work` while holding `tables` (one, or several: all or nothing), renewing the lease,
   * and releases them when it returns, throws, or the process is stopped (SIGINT, SIGTERM).
   * `lock.signal` aborts the moment the lock is lost; `lock.saveRows` writes behind its token.
   */
  withTableLock<T>(
    tables: string | readonly string[],
    work: (lock: TableLock) => Promise<T>,
    options?: WithTableLockOptions,
  ): Promise<T>;
  /** Every row of `table`, read page by page (by cursor) as the iteration goes. */
  rows(table: string, options?: RowsOptions): AsyncGenerator<TableRow>;
  /**
   * Imports a CSV or XLSX file into `table`, holding its lock for the import alone: a dry run
   * unless `dryRun: false` (then the rows are written, all or nothing). Under a lock held for more
   * work, use `lock.importFile`.
   */
  importFile(table: string, path: string, options?: ImportOptions): Promise<ImportResult>;
  /** A table's changes (saves, imports, reverts, outside writes), newest first, a page at a time. */
  tableChanges(
    table: string,
    options?: HistoryPageOptions & { filter?: ChangeSetFilter | null },
  ): Promise<TableChangesPage>;
  /** One row's changes, newest first; `key` is its primary key as `rows` returns it. */
  rowHistory(
    table: string,
    key: Record<string, string | null>,
    options?: HistoryPageOptions,
  ): Promise<RowHistoryPage>;
  /**
   * The change feed (an admin's API key): every lock transition, freeze, change of rows and
   * policy change after `options.after`, in commit order per table, waiting for more at the end.
   */
  changes(options?: ChangesOptions): AsyncGenerator<ChangeFeedEvent>;
  /**
   * Resolves once change request `id` (from `lock.submitForApproval`) is decided or withdrawn:
   * applied, rejected, sent back, with who decided and their comment. A decision made while the
   * connection was down is read when it comes back.
   */
  waitForDecision(id: string, options?: WaitForDecisionOptions): Promise<ChangeRequestDecision>;
}

/** A client of the tablelock API at `config.url`, calling with API key `config.apiKey`. */
export function createTablelockClient(config: TablelockClientConfig): TablelockClient {
  const api = connectToApi(config);
  return {
    withTableLock: (tables, work, options) => withTableLock(api, tables, work, options),
    rows: (table, options) => readRows(api, table, options),
    importFile: (table, path, options) =>
      withTableLock(api, table, (lock) => lock.importFile(table, path, options)),
    tableChanges: (table, options) => readTableChanges(api, table, options),
    rowHistory: (table, key, options) => readRowHistory(api, table, key, options),
    changes: (options) => readChanges(api, options),
    waitForDecision: (id, options) => waitForDecision(api, id, options),
  };
}
