export { type AcquireTableLock, acquireTableLock } from './acquireTableLock';
export {
  type AcquireTableLocks,
  acquireTableLocks,
  MAX_TABLES_AT_ONCE,
} from './acquireTableLocks';
export type { Blocker } from './blocker';
export { type EditBlock, policyBlockOf } from './editBlock';
export { expireLeases } from './expireLeases';
export { parseFencingToken } from './fencingToken';
export { forceReleaseTableLock } from './forceReleaseTableLock';
export {
  type FreezeOutcome,
  type FreezeRule,
  type FreezeTables,
  freezeTables,
  type TableSelection,
  thawEndedFreezes,
  thawTables,
} from './freezeTables';
export {
  type IdleLimits,
  idleLimitOf,
  MAX_IDLE_LIMIT_SECONDS,
  MIN_IDLE_LIMIT_SECONDS,
  readIdleLimits,
  setGlobalIdleLimit,
  setTableIdleLimit,
} from './idleLimitSettings';
export { IDLE_REASON } from './idleLimitSql';
export { isRegisteredTable } from './isRegisteredTable';
export { leaseSeconds, MAX_LEASE_SECONDS, MIN_LEASE_SECONDS } from './lease';
export { lineAheadOf, lineBlockers } from './lineForTable';
export { grantedOrConflict, isGranted, type LockAnswer } from './lockAnswer';
export type { LockChanges } from './lockChangeWatch';
export { LockError, type LockErrorCode } from './lockError';
export { LOCK_CHANNEL, type LockEventInput, recordLockEvent } from './lockEvent';
export type { LockGrant } from './lockGrant';
export { type InvariantRow, lockInvariantViolations } from './lockInvariants';
export { readWaiters, removeGoneWaiters, type Waiter } from './lockQueue';
export type { LockRefusal } from './lockRefusal';
export type { TableStatusChange } from './lockRequest';
export { assertHoldsLock } from './lostLock';
export { type QueueForTable, type QueuePlace, queueForTable } from './queueForTable';
export {
  type LockEventFilter,
  type LockEventPage,
  type LockEventRecord,
  parseAnnouncedEvent,
  readLockEvents,
} from './readLockEvents';
export { type LockGauges, readLockGauges } from './readLockGauges';
export {
  MAX_TABLE_PAGE,
  MAX_TABLE_SEARCH,
  readTablePage,
  readTables,
  readTablesNamed,
  type TableInfo,
  type TablePage,
  type TablePageRequest,
} from './readTables';
export type { ReleasedLock } from './releasedLock';
export { releaseLocksOf } from './releaseLocksOf';
export { releaseTableLock } from './releaseTableLock';
export { renewTableLock } from './renewTableLock';
export { type RegistrySync, syncTableRegistry } from './syncTableRegistry';
export {
  readTablePolicies,
  setTablePolicy,
  type TablePolicy,
  type TablePolicyChange,
} from './tablePolicies';
export { type EditorRights, type Freeze, mayEdit, type TableRules } from './tableRules';
export type { TableState } from './tableState';
export {
  mayTakeOver,
  readTakeOverSettings,
  setTakeOverRule,
  type TakeOverSettings,
  takeOverPermission,
} from './takeOverSettings';
export { takeOverTableLock } from './takeOverTableLock';
export {
  type FkTableStatus,
  type LockOutcome,
  updateTableStatusWithLock,
} from './updateTableStatusWithLock';
export { type WaiterAdmission, WaiterLimit } from './waiterLimit';
export { MAX_WAIT_SECONDS, type WaitForTableLocks, waitForTableLocks } from './waitForTableLocks';
