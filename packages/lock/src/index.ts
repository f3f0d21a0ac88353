export { type AcquireTableLock, acquireTableLock } from './acquireTableLock';
export { expireLeases } from './expireLeases';
export { parseFencingToken } from './fencingToken';
export { type ForcedRelease, forceReleaseTableLock } from './forceReleaseTableLock';
export {
  deleteExpiredIdempotencyKeys,
  type IdempotentRequest,
  runIdempotently,
} from './idempotency';
export { leaseSeconds } from './lease';
export { LockError, type LockErrorCode } from './lockError';
export { LOCK_CHANNEL, type LockEventInput, recordLockEvent } from './lockEvent';
export type { LockGrant } from './lockGrant';
export { type InvariantRow, lockInvariantViolations } from './lockInvariants';
export { compareAndSetQuery, lockScopeQuery } from './lockRegistrySql';
export type { TableStatusChange } from './lockRequest';
export type { LockRow, LockRowChange } from './lockRow';
export { assertHoldsLock } from './lostLock';
export {
  type LockEventFilter,
  type LockEventPage,
  type LockEventRecord,
  parseAnnouncedEvent,
  readLockEvents,
} from './readLockEvents';
export { readTables, type TableInfo } from './readTables';
export { releaseLocksOf } from './releaseLocksOf';
export { releaseTableLock } from './releaseTableLock';
export { renewTableLock } from './renewTableLock';
export { type RegistrySync, syncTableRegistry } from './syncTableRegistry';
export { takeOverTableLock } from './takeOverTableLock';
export {
  type FkTableStatus,
  type LockOutcome,
  updateTableStatusWithLock,
} from './updateTableStatusWithLock';
