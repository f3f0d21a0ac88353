export { type ApiProcess, startApiProcess, stopApiProcess, twoPorts } from './apiProcess';
export { API_DIR, COMPILED_CLI, COMPILED_MAIN } from './compiledApi';
export { CookieJarBrowser, type Visit, type VisitOptions } from './cookieJarBrowser';
export { freePort } from './freePort';
export {
  type IdTokenFault,
  startTestOidcProvider,
  type TestAccount,
  type TestOidcProvider,
} from './oidcProvider';
export { createOtherDatabaseLogin, type OtherDatabaseLogin } from './otherDatabaseLogin';
export { poll } from './poll';
export { type PostgresServer, postgresServer } from './postgresServer';
export { buildPreviousRelease, type PreviousRelease } from './previousRelease';
export { openProcessConnection } from './processConnection';
export { type ReplicaSet, type ReplicaSetOptions, startReplicaSet } from './replicaSet';
export { type ReplicatedDatabase, startReplicatedDatabase } from './replicatedDatabase';
export { resetLockRegistry } from './resetLockRegistry';
export { prepareTablelockDatabase } from './tablelockDatabase';
export { createTestApiKey } from './testApiKey';
export { TEST_AUDIT } from './testAudit';
export {
  createTestDatabase,
  MASTER_SCHEMA,
  openTestDatabase,
  type TestDatabase,
} from './testDatabase';
export { handmadeXlsx, SHEET_END, SHEET_START, type XlsxPart } from './xlsxParts';
