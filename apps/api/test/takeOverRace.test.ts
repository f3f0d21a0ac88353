import { createTestDatabase, resetLockRegistry, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  acquireTableLockMutation,
  releaseTableLockMutation,
  takeOverTableLockMutation,
} from './support/lockOperations';
import { execute, startTestApi, type TestApi, type TestClient } from './support/testApi';

let database: TestDatabase;
let api: TestApi;
let alice: TestClient;
let bob: TestClient;

beforeAll(async () => {
  database = await createTestDatabase();
  api = await startTestApi(database);
  [alice, bob] = await Promise.all([api.loginAs('alice'), api.loginAs('bob')]);
  await resetLockRegistry(database.prisma);
});
afterAll(async () => {
  await api.stop();
  await database.close();
});

describe('take-over by an editor', () => {
  // Who may take over whom is decided on the rows the conditional write claims: an editor's
  // take-over racing another user's acquisition never lands on that user's lock.
  it("never takes over another user's lock, however the requests interleave", async () => {
    const table = 'currencies';
    let stop = false;
    let bobAcquisitions = 0;
    const bobLoop = async () => {
      while (!stop) {
        const grant = (await execute(bob, acquireTableLockMutation, { table, lease: 15 })).data
          ?.acquireTableLock;
        if (!grant) continue;
        bobAcquisitions++;
        await execute(bob, releaseTableLockMutation, { table, token: grant.token });
      }
    };
    const aliceLoop = async () => {
      while (!stop) {
        const taken = await execute(alice, takeOverTableLockMutation, {
          table,
          reason: 'race',
          lease: 15,
        });
        const token = taken.data?.takeOverTableLock.token;
        // Alice's own lock (taken over from a free table's race, or by her) goes straight back.
        if (token) await execute(alice, releaseTableLockMutation, { table, token });
      }
    };
    const loops = [bobLoop(), aliceLoop(), aliceLoop(), aliceLoop(), aliceLoop()];
    await new Promise((resolve) => setTimeout(resolve, 4000));
    stop = true;
    await Promise.all(loops);

    const stolen = await database.prisma.lockEvent.count({
      where: {
        action: 'take_over',
        actor: 'alice',
        details: { path: ['previousEditor'], equals: 'bob' },
      },
    });
    expect(bobAcquisitions).toBeGreaterThan(10);
    expect(stolen).toBe(0);
  });
});
