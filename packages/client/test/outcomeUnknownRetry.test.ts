import {
  type ApiProcess,
  createTestApiKey,
  freePort,
  type ReplicatedDatabase,
  startApiProcess,
  startReplicatedDatabase,
  stopApiProcess,
} from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTablelockClient, type TablelockClient } from '../src';

let replicated: ReplicatedDatabase;
const started: ApiProcess[] = [];
let client: TablelockClient;

beforeAll(async () => {
  replicated = await startReplicatedDatabase();
  const { database } = replicated;
  const apiKey = await createTestApiKey(database.prisma, 'nightly', 'editor');
  const api = await startApiProcess('outcome', database.url, await freePort(), started);
  client = createTablelockClient({ url: api.url, apiKey });
});

afterAll(async () => {
  await Promise.all(started.map(stopApiProcess));
  await replicated?.close();
});

describe('withTableLock, when the API answers OUTCOME_UNKNOWN', () => {
  it('retries the acquisition with its idempotency key and holds the grant the first try made', async () => {
    // The key's first use is recorded (a commit of its own) before the standbys go.
    await client.tableChanges('regions');
    await replicated.replicas.server('s1').stop();
    await replicated.replicas.server('s2').stop();

    const held = client.withTableLock('regions', async (lock) => lock.tokens.regions);
    await replicated.replicas.cancelCommitWaitingForStandby(replicated.replicas.server('p0'));
    await replicated.replicas.server('s1').start();
    const token = await held;

    const events = await replicated.database.prisma.lockEvent.findMany({
      where: { tableName: 'regions' },
      orderBy: { id: 'asc' },
      select: { action: true, token: true },
    });
    expect(events.map((event) => [event.action, event.token?.toString()])).toEqual([
      ['acquire', token],
      ['release', token],
    ]);
    await replicated.replicas.server('s2').start();
  });
});
