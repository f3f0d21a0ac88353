import {
  type ApiProcess,
  createTestApiKey,
  freePort,
  openTestDatabase,
  prepareTablelockDatabase,
  type ReplicaSet,
  startApiProcess,
  startReplicaSet,
  stopApiProcess,
  type TestDatabase,
} from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTablelockClient, type TablelockClient } from '../src';

let replicas: ReplicaSet;
let database: TestDatabase;
const started: ApiProcess[] = [];
let client: TablelockClient;

beforeAll(async () => {
  replicas = await startReplicaSet({
    prepare: async (primary) => {
      await prepareTablelockDatabase(primary.url(), 'tablelock');
    },
  });
  const url = replicas.multiHostUrl('tablelock');
  database = openTestDatabase(url);
  const apiKey = await createTestApiKey(database.prisma, 'nightly', 'editor');
  const api = await startApiProcess('outcome', url, await freePort(), started);
  client = createTablelockClient({ url: api.url, apiKey });
});

afterAll(async () => {
  await Promise.all(started.map(stopApiProcess));
  await database?.close();
  await replicas?.close();
});

describe('withTableLock, when the API answers OUTCOME_UNKNOWN', () => {
  it('retries the acquisition with its idempotency key and holds the grant the first try made', async () => {
    // The key's first use is recorded (a commit of its own) before the standbys go.
    await client.tableChanges('regions');
    await replicas.server('s1').stop();
    await replicas.server('s2').stop();

    const held = client.withTableLock('regions', async (lock) => lock.tokens.regions);
    await replicas.cancelCommitWaitingForStandby(replicas.server('p0'));
    await replicas.server('s1').start();
    const token = await held;

    const events = await database.prisma.lockEvent.findMany({
      where: { tableName: 'regions' },
      orderBy: { id: 'asc' },
      select: { action: true, token: true },
    });
    expect(events.map((event) => [event.action, event.token?.toString()])).toEqual([
      ['acquire', token],
      ['release', token],
    ]);
    await replicas.server('s2').start();
  });
});
