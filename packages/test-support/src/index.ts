export { freePort } from './freePort';
export { createTestDatabase, MASTER_SCHEMA, type TestDatabase } from './testDatabase';
