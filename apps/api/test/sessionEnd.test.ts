import { createUser } from '@tablelock/identity';
import {
  createTestDatabase,
  resetLockRegistry,
  TEST_AUDIT,
  type TestDatabase,
} from '@tablelock/test-support';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { subscribeLockChanges } from './support/lockChanges';
import { acquireTableLockAs, lockEvents, logoutMutation, meQuery } from './support/lockOperations';
import { readRegistry } from './support/registry';
import { execute, startTestApi, type TestApi, type TestClient } from './support/testApi';

let database: TestDatabase;
let api: TestApi;
let bob: TestClient;
let admin: TestClient;

beforeAll(async () => {
  database = await createTestDatabase();
  api = await startTestApi(database);
  [bob, admin] = await Promise.all([api.loginAs('bob'), api.loginAs('admin')]);
});
afterAll(async () => {
  await api.stop();
  await database.close();
});
beforeEach(() => resetLockRegistry(database.prisma));

describe('logout', () => {
  it('releases every lock of the user, recorded with reason logout', async () => {
    const bobElsewhere = await api.loginAs('bob');
    await acquireTableLockAs(bobElsewhere, 'price_lists');
    // Locks belong to the user, not the session: this one goes too.
    await acquireTableLockAs(bob, 'customers');
    const before = await readRegistry(database.prisma);
    expect(before.get('currencies')?.status).toBe('locked');
    expect(before.get('regions')?.status).toBe('locked');

    const loggedOut = await execute(bobElsewhere, logoutMutation);
    expect(loggedOut.data?.logout).toBe(true);

    const after = await readRegistry(database.prisma);
    for (const table of ['price_lists', 'customers', 'currencies', 'regions']) {
      expect(after.get(table), table).toMatchObject({
        status: 'normal',
        editor: null,
        lockedBy: [],
      });
    }
    const { events } = await lockEvents(admin, { user: 'bob', actions: ['release'] }, 0, 2);
    expect(events.map((event) => event.table).sort()).toEqual(['customers', 'price_lists']);
    for (const event of events) {
      expect(event).toMatchObject({ actor: 'bob', editor: 'bob', reason: 'logout' });
    }
    // The other session stays logged in.
    expect((await execute(bob, meQuery)).data?.me?.name).toBe('bob');
  });
});

describe('live updates', () => {
  it('end for a subscriber whose session has ended', async () => {
    await createUser(
      database.prisma,
      { username: 'dora', password: 'dora-password', role: 'viewer' },
      TEST_AUDIT,
    );
    const dora = await api.loginAs('dora', 'dora-password');
    const doraChanges = await subscribeLockChanges({
      url: api.url,
      headers: dora.headers,
      prisma: database.prisma,
    });
    const adminChanges = await subscribeLockChanges({
      url: api.url,
      headers: admin.headers,
      prisma: database.prisma,
    });
    try {
      expect((await execute(dora, logoutMutation)).data?.logout).toBe(true);
      const grant = await acquireTableLockAs(bob, 'regions');
      await adminChanges.waitFor((change) => change.token === grant.token);
      // Closed as forbidden when the logout is announced, before the change that follows it.
      await expect(doraChanges.waitFor(() => true)).rejects.toThrow(/socket closed 4403/);
      expect(doraChanges.received).toEqual([]);
    } finally {
      await doraChanges.close();
      await adminChanges.close();
    }
  });
});
