import { createTestDatabase, resetLockRegistry, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLiveSocket } from './support/liveSocket';
import {
  acquireTableLockAs,
  acquireTableLockMutation,
  saveRowsMutation,
} from './support/lockOperations';
import { execute, startTestApi, type TestApi, type TestClient } from './support/testApi';

const METRICS_TOKEN = 'scrape-secret';

let database: TestDatabase;
let api: TestApi;
let alice: TestClient;
let bob: TestClient;

beforeAll(async () => {
  database = await createTestDatabase();
  api = await startTestApi(database, { metricsToken: METRICS_TOKEN });
  [alice, bob] = await Promise.all([api.loginAs('alice'), api.loginAs('bob')]);
  await resetLockRegistry(database.prisma);
});
afterAll(async () => {
  await api.stop();
  await database.close();
});

async function scrape(): Promise<string> {
  const response = await fetch(`${api.url}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
  return response.text();
}

/** The value of one sample, e.g. `tablelock_tables{status="editing"}`; undefined if absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('/metrics', () => {
  it('refuses a scrape without the token', async () => {
    const response = await fetch(`${api.url}/metrics`);
    expect(response.status).toBe(401);
    const wrong = await fetch(`${api.url}/metrics`, { headers: { authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
  });

  it('tells /readyz callers without the token only whether it is ready', async () => {
    for (const headers of [{}, { authorization: 'Bearer nope' }] as Record<string, string>[]) {
      const anonymous = await fetch(`${api.url}/readyz`, { headers });
      expect(anonymous.status).toBe(200);
      expect(await anonymous.json()).toEqual({ status: 'ready' });
    }
    const scraper = await fetch(`${api.url}/readyz`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(scraper.status).toBe(200);
    expect(await scraper.json()).toEqual({
      status: 'ready',
      database: { primary: true, timeline: 1, synchronousStandbys: [] },
    });
  });

  it('refuses a bearer value of the right length with a non-ASCII character (401, not a crash)', async () => {
    // Node reads header bytes as Latin-1: one character here, two bytes in UTF-8.
    const value = `Bearer \u00e9${METRICS_TOKEN.slice(1)}`;
    const response = await fetch(`${api.url}/metrics`, { headers: { authorization: value } });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({
      errors: [{ extensions: { code: 'UNAUTHENTICATED' } }],
    });
  });

  it('reports lock operations, lock state, fencing refusals, saves and the pool', async () => {
    const { token } = await acquireTableLockAs(alice, 'regions', { lease: 60 });
    const refused = await execute(bob, acquireTableLockMutation, { table: 'regions', lease: 60 });
    expect(refused.errors?.[0]?.extensions?.code).toBe('LOCK_CONFLICT');
    const saved = await execute(alice, saveRowsMutation, {
      table: 'regions',
      token,
      changes: { inserts: [{ values: { id: '9001', code: 'MX', name: 'Metrics' } }] },
    });
    expect(saved).toEqual({
      data: { saveRows: { saved: true, inserted: 1, updated: 0, deleted: 0 } },
    });
    const stale = await execute(alice, saveRowsMutation, {
      table: 'regions',
      token: String(BigInt(token) + 1000n),
      changes: { inserts: [{ values: { id: '9002', name: 'Stale' } }] },
    });
    expect(stale.errors?.[0]).toMatchObject({ extensions: { code: 'LOCK_LOST' } });

    await database.prisma.lockWaiter.create({
      data: { tables: ['regions'], editor: 'bob', actor: 'bob', owner: 'a process' },
    });
    const text = await scrape();
    const acquire = 'tablelock_lock_operations_total{operation="acquireTableLock"';
    expect(sample(text, `${acquire},result="granted"}`)).toBe(1);
    expect(sample(text, `${acquire},result="refused"}`)).toBe(1);
    expect(sample(text, 'tablelock_tables{status="editing"}')).toBe(1);
    expect(sample(text, 'tablelock_oldest_lock_age_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'tablelock_lock_waiters')).toBe(1);
    expect(sample(text, 'tablelock_longest_wait_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'tablelock_fencing_refusals_total')).toBe(1);
    expect(sample(text, 'tablelock_saves_total')).toBe(1);
    expect(sample(text, 'tablelock_rows_saved_total')).toBe(1);
    expect(sample(text, 'tablelock_database_up')).toBe(1);
    expect(
      sample(
        text,
        'tablelock_graphql_request_duration_seconds_count{operation="acquireTableLock"}',
      ),
    ).toBe(2);
    expect(sample(text, 'tablelock_http_responses_total{code="200"}')).toBeGreaterThan(3);
    expect(sample(text, 'tablelock_db_pool_connections{state="idle"}')).toBeGreaterThan(0);
    expect(sample(text, 'tablelock_db_statements_total')).toBeGreaterThan(5);
    // The scrape reads gauges from the database: those statements count at the next one.
    const counted = sample(text, 'tablelock_db_statements_total') ?? Number.NaN;
    expect(sample(await scrape(), 'tablelock_db_statements_total')).toBeGreaterThan(counted);
    expect(sample(text, 'tablelock_live_subscriptions')).toBe(0);
    expect(text).toMatch(/^tablelock_process_cpu_seconds_total /m);
    expect(
      text.split('\n').filter((line) => /^[a-z]/.test(line) && !line.startsWith('tablelock_')),
    ).toEqual([]);
  });

  // A subscription whose client left is gone at once, not at the next lock change (until
  // which it would hold its listener and count).
  it('counts live subscriptions, and stops counting those whose client left', async () => {
    const socket = openLiveSocket({ url: api.url, headers: { ...alice.headers, origin: api.url } });
    socket.subscribe('subscription { lockChanged { action } }');
    socket.subscribe('subscription { lockChanged(table: "regions") { action } }');
    await until(async () => sample(await scrape(), 'tablelock_live_subscriptions') === 2);
    await socket.dispose();
    await until(async () => sample(await scrape(), 'tablelock_live_subscriptions') === 0);
  });
});

async function until(condition: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not so within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
