import { createTestDatabase, resetLockRegistry, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startTestApi, type TestApi, type TestClient } from './testApi';

/** A test file's own database and API, with alice, bob (editors) and admin signed in. */
export interface SignedInApi {
  database: TestDatabase;
  api: TestApi;
  alice: TestClient;
  bob: TestClient;
  admin: TestClient;
}

/**
 * Sets up a SignedInApi for the calling test file (its fields are there once its tests run),
 * stops it after them, and resets the lock registry before each test.
 */
export function useSignedInApi(): SignedInApi {
  const fixture = {} as SignedInApi;
  beforeAll(async () => {
    fixture.database = await createTestDatabase();
    fixture.api = await startTestApi(fixture.database);
    [fixture.alice, fixture.bob, fixture.admin] = await Promise.all([
      fixture.api.loginAs('alice'),
      fixture.api.loginAs('bob'),
      fixture.api.loginAs('admin'),
    ]);
  });
  afterAll(async () => {
    await fixture.api?.stop();
    await fixture.database?.close();
  });
  beforeEach(() => resetLockRegistry(fixture.database.prisma));
  return fixture;
}
