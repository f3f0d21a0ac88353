export { discoverForeignKeys } from './discoverForeignKeys';
export { type ForcedRelease, forceReleaseTableLock } from './forceReleaseTableLock';
export { LockError, type LockErrorCode } from './lockError';
export { compareAndSetQuery, lockScopeQuery } from './lockRegistrySql';
export { MAX_FK_TABLES, type TableStatusChange } from './lockRequest';
export type { LockRow } from './lockRow';
export { readTables, type TableInfo } from './readTables';
export { type RegistrySync, syncTableRegistry } from './syncTableRegistry';
export {
  type FkTableStatus,
  type LockOutcome,
  updateTableStatusWithLock,
} from './updateTableStatusWithLock';
