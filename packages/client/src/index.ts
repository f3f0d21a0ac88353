export type { ChangeFeedEvent, ChangesOptions } from './changeFeed';
export { createTablelockClient, type TablelockClient } from './createTablelockClient';
export type {
  ChangeSetFilter,
  HistoryPageOptions,
  RowHistoryPage,
  TableChangesPage,
} from './historyReads';
export type { ImportOptions, ImportResult } from './importFile';
export type { RowFilter, RowSort, RowsOptions, TableRow } from './rowReads';
export type {
  ApprovalRequest,
  RowChanges,
  SaveResult,
  SubmitResult,
  TableLock,
} from './TableLock';
export {
  isTablelockError,
  TablelockError,
  type TablelockErrorCode,
  type TablelockErrorExtensions,
} from './TablelockError';
export type { TablelockClientConfig } from './tablelockApi';
export type { SqlConnection } from './useLockIn';
export type { ChangeRequestDecision, WaitForDecisionOptions } from './waitForDecision';
export type { WithTableLockOptions } from './withTableLock';
