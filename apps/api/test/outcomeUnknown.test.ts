import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireTableLockMutation } from './support/lockOperations';
import { type ReplicatedTestApi, startReplicatedTestApi } from './support/replicatedTestApi';
import { execute, type TestClient } from './support/testApi';

let setup: ReplicatedTestApi;

beforeAll(async () => {
  setup = await startReplicatedTestApi();
});

afterAll(async () => {
  await setup?.stop();
});

/** The status and error code of `query` sent by `client` (a bare fetch, as a client retries). */
async function send(
  client: TestClient,
  query: string,
  variables: Record<string, unknown>,
): Promise<{ status: number; code: string | undefined; retryAfter: number; data: unknown }> {
  const response = await fetch(`${setup.api.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...client.headers },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as {
    data?: unknown;
    errors?: { extensions?: { code?: string } }[];
  };
  return {
    status: response.status,
    code: body.errors?.[0]?.extensions?.code,
    retryAfter: Number(response.headers.get('retry-after')),
    data: body.data ?? null,
  };
}

async function acquisitions(table: string): Promise<number> {
  const rows = await setup.database.prisma.$queryRaw<{ count: number }[]>`
    SELECT count(*)::int AS count FROM tablelock.lock_event
    WHERE table_name = ${table} AND action = 'acquire'`;
  return rows[0]?.count ?? 0;
}

describe('a commit the setup.database may not keep', () => {
  it('whose wait for a standby is cancelled answers OUTCOME_UNKNOWN; a retry with its key answers the true outcome', async () => {
    const primary = setup.replicas.server('p0');
    // The key's first use records it (once a minute), a commit of its own: done with here.
    expect((await setup.batch.graphql('{ tables { name } }')).errors).toBeUndefined();
    await setup.replicas.server('s1').stop();
    await setup.replicas.server('s2').stop();

    const request = {
      query: acquireTableLockMutation.toString(),
      variables: { table: 'regions', key: 'nightly-regions' },
    };
    const answer = fetch(`${setup.api.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...setup.batch.headers },
      body: JSON.stringify(request),
    });
    await setup.replicas.cancelCommitWaitingForStandby(primary);
    const response = await answer;
    const body = (await response.json()) as {
      data?: unknown;
      errors?: { extensions?: { code?: string } }[];
    };
    expect(body.errors?.[0]?.extensions?.code).toBe('OUTCOME_UNKNOWN');
    expect(body.data ?? null).toBeNull();
    expect(response.status).toBe(503);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);

    await setup.replicas.server('s1').start();
    const retried = await execute(setup.batch, acquireTableLockMutation, {
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
    const [row] = await setup.database.prisma.$queryRaw<{ token: string }[]>`
      SELECT fencing_token::text AS token FROM tablelock.table_lock WHERE table_name = 'regions'`;
    expect(retried.data?.acquireTableLock.token).toBe(row?.token);
    await setup.replicas.server('s2').start();
  });

  it('answers a retry only once a standby has the first run: its wait cancelled too, it is OUTCOME_UNKNOWN again', async () => {
    const primary = setup.replicas.server('p0');
    const admin = await setup.api.withApiKey('feed-reader', 'admin');
    for (const client of [setup.batch, admin]) {
      expect((await client.graphql('{ tables { name } }')).errors).toBeUndefined();
    }
    await setup.replicas.server('s1').stop();
    await setup.replicas.server('s2').stop();
    const acquire = acquireTableLockMutation.toString();
    const variables = { table: 'currencies', key: 'nightly-currencies' };

    const first = send(setup.batch, acquire, variables);
    await setup.replicas.cancelCommitWaitingForStandby(primary);
    expect((await first).code).toBe('OUTCOME_UNKNOWN');

    // The first run is on the primary alone: its retry waits for a standby before it answers,
    // and a cut wait leaves it as unknown as before — never the stored grant.
    const retry = send(setup.batch, acquire, variables);
    await setup.replicas.cancelCommitWaitingForStandby(primary, '%pg_logical_emit_message(true%');
    const retried = await retry;
    expect(retried).toMatchObject({ status: 503, code: 'OUTCOME_UNKNOWN', data: null });
    expect(retried.retryAfter).toBeGreaterThan(0);

    // The change feed hands out no page whose commits a failover may lose.
    // The page is made durable in its own read (readFeedPage), a statement longer than the 1024
    // characters of it that pg_stat_activity keeps: it is found by its start.
    const page = send(admin, '{ changeFeed(first: 10) { events { id } } }', {});
    await setup.replicas.cancelCommitWaitingForStandby(primary, '%WITH seen AS%');
    expect(await page).toMatchObject({ status: 503, code: 'OUTCOME_UNKNOWN', data: null });

    await setup.replicas.server('s1').start();
    const answered = await execute(setup.batch, acquireTableLockMutation, variables);
    expect(answered.errors).toBeUndefined();
    expect(answered.data?.acquireTableLock).toMatchObject({ table: 'currencies' });
    expect(await acquisitions('currencies')).toBe(1);
    await setup.replicas.server('s2').start();
  });
});
