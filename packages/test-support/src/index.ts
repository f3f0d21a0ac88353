export { type ApiProcess, startApiProcess, stopApiProcess, twoPorts } from './apiProcess';
export { API_DIR, COMPILED_CLI, COMPILED_MAIN } from './compiledApi';
export { freePort } from './freePort';
export { poll } from './poll';
export { resetLockRegistry } from './resetLockRegistry';
export { createTestApiKey } from './testApiKey';
export { TEST_AUDIT } from './testAudit';
export { createTestDatabase, MASTER_SCHEMA, type TestDatabase } from './testDatabase';
