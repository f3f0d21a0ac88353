import {
  openTestDatabase,
  prepareTablelockDatabase,
  type ReplicaSet,
  startReplicaSet,
  type TestDatabase,
} from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireTableLockMutation } from './support/lockOperations';
import { execute, startTestApi, type TestApi, type TestClient } from './support/testApi';

let replicas: ReplicaSet;
let database: TestDatabase;
let api: TestApi;
let batch: TestClient;

beforeAll(async () => {
  replicas = await startReplicaSet({
    prepare: async (primary) => {
      await prepareTablelockDatabase(primary.url(), 'tablelock');
    },
  });
  database = openTestDatabase(replicas.multiHostUrl('tablelock'));
  api = await startTestApi(database);
  batch = await api.withApiKey('nightly', 'editor');
});

afterAll(async () => {
  await api?.stop();
  await database?.close();
  await replicas?.close();
});

async function acquisitions(table: string): Promise<number> {
  const rows = await database.prisma.$queryRaw<{ count: number }[]>`
    SELECT count(*)::int AS count FROM tablelock.lock_event
    WHERE table_name = ${table} AND action = 'acquire'`;
  return rows[0]?.count ?? 0;
}

describe('a commit the database may not keep', () => {
  it('whose wait for a standby is cancelled answers OUTCOME_UNKNOWN; a retry with its key answers the true outcome', async () => {
    const primary = replicas.server('p0');
    // The key's first use records it (once a minute), a commit of its own: done with here.
    expect((await batch.graphql('{ tables { name } }')).errors).toBeUndefined();
    await replicas.server('s1').stop();
    await replicas.server('s2').stop();

    const request = {
      query: acquireTableLockMutation.toString(),
      variables: { table: 'regions', key: 'nightly-regions' },
    };
    const answer = fetch(`${api.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...batch.headers },
      body: JSON.stringify(request),
    });
    await replicas.cancelCommitWaitingForStandby(primary);
    const response = await answer;
    const body = (await response.json()) as {
      data?: unknown;
      errors?: { extensions?: { code?: string } }[];
    };
    expect(body.errors?.[0]?.extensions?.code).toBe('OUTCOME_UNKNOWN');
    expect(body.data ?? null).toBeNull();
    expect(response.status).toBe(503);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);

    await replicas.server('s1').start();
    const retried = await execute(batch, acquireTableLockMutation, {
      table: 'regions',
      key: 'nightly-regions',
    });
    expect(retried.errors).toBeUndefined();
    expect(retried.data?.acquireTableLock).toMatchObject({
      table: 'regions',
      editor: 'key:nightly',
    });
    // The first run committed on the primary; the retry answered it rather than acquiring again.
    expect(await acquisitions('regions')).toBe(1);
    const [row] = await database.prisma.$queryRaw<{ token: string }[]>`
      SELECT fencing_token::text AS token FROM tablelock.table_lock WHERE table_name = 'regions'`;
    expect(retried.data?.acquireTableLock.token).toBe(row?.token);
    await replicas.server('s2').start();
  });
});
