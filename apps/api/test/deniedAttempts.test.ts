import { createTestDatabase, resetLockRegistry, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi, type TestClient } from './support/testApi';

// A refused attempt is a result, recorded in the history in one place (the lock change itself),
// whether or not the request carried an idempotency key; only grants are kept for retries.

let database: TestDatabase;
let api: TestApi;
let alice: TestClient;
let bob: TestClient;

const ACQUIRE = `mutation($table: String!, $key: String) {
  acquireTableLock(table: $table, idempotencyKey: $key) { token } }`;
const RELEASE = `mutation($table: String!, $token: String!) {
  releaseTableLock(table: $table, token: $token) { status } }`;

type Grant = { acquireTableLock: { token: string } | null };

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

async function deniedEvents(table: string) {
  return database.prisma.$queryRaw<{ actor: string; reason: string }[]>`
    SELECT actor, reason FROM tablelock.lock_event
    WHERE table_name = ${table} AND action = 'denied' ORDER BY id`;
}

describe('a denied attempt', () => {
  it('with an idempotency key: recorded, not kept, so a retry once the way is free is granted', async () => {
    const held = await alice.graphql<Grant>(ACQUIRE, { table: 'regions' });
    const token = held.data?.acquireTableLock?.token as string;

    const refused = await bob.graphql<Grant>(ACQUIRE, { table: 'regions', key: 'bob-regions' });
    expect(refused.errors?.[0]).toMatchObject({
      message: 'Refused: regions is being edited by alice.',
      extensions: { code: 'LOCK_CONFLICT', editBlock: 'beingEdited' },
    });
    expect(await deniedEvents('regions')).toEqual([
      { actor: 'bob', reason: 'regions is being edited by alice' },
    ]);

    expect((await alice.graphql(RELEASE, { table: 'regions', token })).errors).toBeUndefined();
    const retried = await bob.graphql<Grant>(ACQUIRE, { table: 'regions', key: 'bob-regions' });
    expect(retried.data?.acquireTableLock?.token).toEqual(expect.any(String));
    // The key now holds the grant: the same request again gets the same answer.
    const again = await bob.graphql<Grant>(ACQUIRE, { table: 'regions', key: 'bob-regions' });
    expect(again.data).toEqual(retried.data);
  });

  it('of a release: recorded too, with what stood in the way', async () => {
    const refused = await alice.graphql(RELEASE, { table: 'currencies', token: '1' });
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'LOCK_CONFLICT' });
    expect(await deniedEvents('currencies')).toEqual([
      { actor: 'alice', reason: 'currencies is not being edited' },
    ]);
  });
});
