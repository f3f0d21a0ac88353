export { createTablelockClient, type TablelockClient } from './createTablelockClient';
export type { RowChanges, SaveResult, TableLock } from './TableLock';
export {
  isTablelockError,
  TablelockError,
  type TablelockErrorCode,
  type TablelockErrorExtensions,
} from './TablelockError';
export type { TablelockClientConfig } from './tablelockApi';
export type { WithTableLockOptions } from './withTableLock';
