import { MAX_LEASE_SECONDS } from '@tablelock/lock';
import { poll } from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireTableLockMutation } from './support/lockOperations';
import { type ReplicatedTestApi, startReplicatedTestApi } from './support/replicatedTestApi';
import { execute, startTestApi, type TestApi, type TestClient } from './support/testApi';

/** The API with REQUIRE_SYNC_REPLICA; `unguarded` is one without it, on the same servers. */
let guarded: ReplicatedTestApi;
let unguarded: TestApi;
let nightly: TestClient;
/** nightly's lock on regions. */
let token: string;

beforeAll(async () => {
  guarded = await startReplicatedTestApi({ requireSyncReplica: true });
  unguarded = await startTestApi(guarded.database);
  nightly = guarded.batch;
  // Held for the whole file, which under the suite's load came near the default lease (60 s).
  const granted = await execute(nightly, acquireTableLockMutation, {
    table: 'regions',
    lease: MAX_LEASE_SECONDS,
  });
  token = granted.data?.acquireTableLock.token ?? '';
});

afterAll(async () => {
  await unguarded?.stop();
  await guarded?.stop();
});

const REGIONS = 'id,code,name,parent_id\r\n1,APAC,Asia and the Pacific,\r\n';

function upload(api: { url: string }, query: Record<string, string> = {}) {
  const search = new URLSearchParams({ token, fileName: 'regions.csv', ...query });
  return fetch(`${api.url}/import/regions?${search}`, {
    method: 'POST',
    headers: { 'content-type': 'text/csv', ...nightly.headers },
    body: REGIONS,
  });
}

interface Answer {
  report?: { applied: boolean; counts: Record<string, number> };
  errors?: { extensions: { code: string } }[];
}

async function answer(response: Response) {
  const body = (await response.json()) as Answer;
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    code: body.errors?.[0]?.extensions.code,
    report: body.report,
  };
}

async function regionName(): Promise<string | undefined> {
  const [row] = await guarded.database.prisma.$queryRaw<{ name: string }[]>`
    SELECT name FROM master.regions WHERE id = 1`;
  return row?.name;
}

async function dryRuns(): Promise<number> {
  const [row] = await guarded.database.prisma.$queryRaw<{ count: number }[]>`
    SELECT count(*)::int AS count FROM tablelock.import_dry_run`;
  return row?.count ?? 0;
}

describe('the HTTP import on a replicated database', () => {
  it('is refused with REQUIRE_SYNC_REPLICA while no synchronous standby is attached, and changes nothing', async () => {
    const keptBefore = await dryRuns();
    await guarded.replicas.server('s1').stop();
    await guarded.replicas.server('s2').stop();
    // The guard asks the primary, which lists a standby until its connection is gone.
    await poll('no standby attached', 10_000, async () =>
      (await fetch(`${guarded.api.url}/readyz`)).status === 503 ? true : undefined,
    );
    const refused = await answer(await upload(guarded.api));
    expect(refused).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(await answer(await upload(guarded.api, { dryRun: '1' }))).toMatchObject({
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
    });
    expect(await regionName()).toBe('Asia Pacific');
    expect(await dryRuns()).toBe(keptBefore);

    await guarded.replicas.server('s1').start();
    await guarded.replicas.server('s2').start();
  });

  it('answers OUTCOME_UNKNOWN, never success, when a commit of it may not be kept', async () => {
    await guarded.replicas.server('s1').stop();
    await guarded.replicas.server('s2').stop();
    const sent = upload(unguarded);
    await guarded.replicas.cancelCommitWaitingForStandby(guarded.replicas.server('p0'));
    const unknown = await answer(await sent);
    expect(unknown).toMatchObject({ status: 503, code: 'OUTCOME_UNKNOWN' });
    expect(Number(unknown.retryAfter)).toBeGreaterThan(0);
    expect(unknown.report).toBeUndefined();

    // Sent again once a standby is back: what the first kept shows as unchanged, the rest is written.
    await guarded.replicas.server('s1').start();
    const again = await answer(await upload(unguarded));
    expect(again).toMatchObject({ status: 200, report: { applied: true } });
    expect(await regionName()).toBe('Asia and the Pacific');
    await guarded.replicas.server('s2').start();
  });
});
