export type { Blocker } from './core/blocker';
export { type EditBlock, editBlockFor, policyBlockOf } from './core/editBlock';
export { parseFencingToken } from './core/fencingToken';
export { leaseSeconds, MAX_LEASE_SECONDS, MIN_LEASE_SECONDS } from './core/lease';
export { lineAheadOf, lineBlockers } from './core/lineForTable';
export { grantedOrConflict, isGranted, type LockAnswer } from './core/lockAnswer';
export { LockError, type LockErrorCode } from './core/lockError';
export { type InvariantRow, lockInvariantViolations } from './core/lockInvariants';
export type { LockRefusal } from './core/lockRefusal';
export { type EditorRights, type Freeze, mayEdit, type TableRules } from './core/tableRules';
export { mayTakeOver, takeOverPermission } from './core/takeOverRule';
export type { Waiter } from './core/waiter';
export type { LockChanges } from './line/lockChangeWatch';
export { readWaiters, removeGoneWaiters } from './line/lockQueue';
export { type QueueForTable, type QueuePlace, queueForTable } from './line/queueForTable';
export { UnfinishedLeaves } from './line/unfinishedLeaves';
export { type WaiterAdmission, WaiterLimit } from './line/waiterLimit';
export {
  MAX_WAIT_SECONDS,
  type WaitForTableLocks,
  waitForTableLocks,
} from './line/waitForTableLocks';
export { type AcquireRowScope, acquireRowScope, MAX_SCOPE_ROWS } from './ops/acquireRowScope';
export { type AcquireTableLock, acquireTableLock } from './ops/acquireTableLock';
export {
  type AcquireTableLocks,
  acquireTableLocks,
  MAX_TABLES_AT_ONCE,
} from './ops/acquireTableLocks';
export { handLockBack, moveLockToChangeRequest } from './ops/changeRequestLock';
export { expireRowScopes, releaseRowScope } from './ops/endRowScope';
export { expireLeases } from './ops/expireLeases';
export { forceReleaseRowScope } from './ops/forceReleaseRowScope';
export { forceReleaseTableLock } from './ops/forceReleaseTableLock';
export { type LockGrant, reviveGrant, reviveGrants } from './ops/lockGrant';
export type { TableStatusChange } from './ops/lockRequest';
export { assertHoldsLock, explainLockEndedInDatabase, type HeldLock } from './ops/lostLock';
export type { ReleasedLock } from './ops/releasedLock';
export { releaseLocksOf } from './ops/releaseLocksOf';
export { releaseTableLock } from './ops/releaseTableLock';
export { renewRowScope } from './ops/renewRowScope';
export { renewTableLock } from './ops/renewTableLock';
export { type RegistrySync, syncTableRegistry } from './ops/syncTableRegistry';
export { takeOverRowScope } from './ops/takeOverRowScope';
export { takeOverTableLock } from './ops/takeOverTableLock';
export {
  type FkTableStatus,
  type LockOutcome,
  updateTableStatusWithLock,
} from './ops/updateTableStatusWithLock';
export { type ArchivedLockEvent, readLockEventArchive } from './reads/lockEventArchive';
export {
  type LockEventFilter,
  type LockEventPage,
  type LockEventRecord,
  parseAnnouncedEvent,
  readLockEvents,
} from './reads/readLockEvents';
export { type LockGauges, readLockGauges } from './reads/readLockGauges';
export {
  MAX_TABLE_PAGE,
  MAX_TABLE_SEARCH,
  readTablePage,
  readTables,
  readTablesNamed,
  type TableInfo,
  type TablePage,
  type TablePageRequest,
} from './reads/readTables';
export type { TableState } from './reads/tableState';
export {
  type FreezeOutcome,
  type FreezeRule,
  type FreezeTables,
  freezeTables,
  type TableSelection,
  thawEndedFreezes,
  thawTables,
} from './rules/freezeTables';
export {
  type IdleLimits,
  idleLimitOf,
  MAX_IDLE_LIMIT_SECONDS,
  MIN_IDLE_LIMIT_SECONDS,
  readIdleLimits,
  setGlobalIdleLimit,
  setTableIdleLimit,
} from './rules/idleLimitSettings';
export {
  type ApprovalPolicy,
  readTablePolicies,
  setTablePolicy,
  type TablePolicy,
  type TablePolicyChange,
} from './rules/tablePolicies';
export {
  readTakeOverSettings,
  setTakeOverRule,
  type TakeOverSettings,
} from './rules/takeOverSettings';
export { GUARD_TRIGGERS } from './sql/guardTriggers';
export { IDLE_REASON } from './sql/idleLimitSql';
export { isRegisteredTable } from './sql/isRegisteredTable';
export { LOCK_CHANNEL, type LockEventInput, recordLockEvent } from './sql/lockEvent';
export { purgeLockEvents } from './sql/lockEventRetention';
export { notAMasterTable } from './sql/notAMasterTable';
export { isRowScopeToken, readRowLockColumn } from './sql/rowScopeSql';
export type { RowScope } from './sql/tableLockRow';
