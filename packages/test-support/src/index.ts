export { freePort } from './freePort';
export { resetLockRegistry } from './resetLockRegistry';
export { TEST_AUDIT } from './testAudit';
export { createTestDatabase, MASTER_SCHEMA, type TestDatabase } from './testDatabase';
