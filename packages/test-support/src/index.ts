export { freePort } from './freePort';
export { resetLockRegistry } from './resetLockRegistry';
export { createTestDatabase, MASTER_SCHEMA, type TestDatabase } from './testDatabase';
