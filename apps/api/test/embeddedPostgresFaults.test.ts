import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@tablelock/test-support';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type EmbeddedApiProcess,
  hasExited,
  logLines,
  runningPostgres,
  signIn,
  startEmbeddedApi,
  stopStartedProcesses,
  waitFor,
  waitUntilServing,
} from './support/embeddedApiProcess';
import { type PostOutcome, postOnOwnConnection } from './support/postOnOwnConnection';

// Faults under load, with real processes: `npm start`'s API on its embedded Postgres, which the
// tests kill or stop while clients keep calling. The tests share one cluster, in order.

const RECOVER_WITHIN_MS = 30_000;
const STOP_WITHIN_MS = 15_000;

let dataDir: string;
let clusterDir: string;
let embeddedPort: number;
const started: EmbeddedApiProcess[] = [];
const postgresPids = new Set<number>();

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tablelock-faults-'));
  // Run as root, embedded Postgres runs as a user of its own, who must be able to enter.
  await chmod(dataDir, 0o755);
  clusterDir = join(dataDir, 'postgres');
  embeddedPort = await freePort();
});
afterEach(() => stopStartedProcesses(started, postgresPids, clusterDir));
afterAll(() => rm(dataDir, { recursive: true, force: true }));

async function serving(env?: NodeJS.ProcessEnv): Promise<EmbeddedApiProcess> {
  const api = startEmbeddedApi({ dataDir, port: await freePort(), embeddedPort, env }, started);
  await waitUntilServing(api);
  await runningPostgres(clusterDir, postgresPids);
  return api;
}

const databaseUrl = () => `postgresql://postgres:postgres@127.0.0.1:${embeddedPort}/tablelock`;

const TABLES = '{ tables { name status editor } }';
const ACQUIRE = 'mutation($table: String!) { acquireTableLock(table: $table) { token } }';
const RELEASE =
  'mutation($table: String!, $token: String!) { releaseTableLock(table: $table, token: $token) { name status } }';
// A save of no changes still passes the fence, which reads the lock row FOR SHARE.
const SAVE_NOTHING =
  'mutation($table: String!, $token: String!) { saveRows(table: $table, token: $token, changes: {}) { saved } }';

async function acquire(api: EmbeddedApiProcess, cookie: string, table: string): Promise<string> {
  const outcome = await postOnOwnConnection(api.url, { cookie }, ACQUIRE, { table });
  const token = outcome.kind === 'answered' && outcome.body.data?.acquireTableLock;
  if (!token) throw new Error(`cannot acquire ${table}: ${JSON.stringify(outcome)}`);
  return (token as { token: string }).token;
}

/** Clients calling `query` in a loop until stopped, keeping every outcome. */
function keepCalling(api: EmbeddedApiProcess, cookie: string, clients: number) {
  const outcomes: PostOutcome[] = [];
  let calling = true;
  const loops = Array.from({ length: clients }, async () => {
    while (calling) outcomes.push(await postOnOwnConnection(api.url, { cookie }, TABLES));
  });
  return {
    outcomes,
    async stop() {
      calling = false;
      await Promise.all(loops);
    },
  };
}

const isServed = (outcome: PostOutcome) =>
  outcome.kind === 'answered' && outcome.status === 200 && outcome.body.errors === undefined;
const isCodedUnavailable = (outcome: PostOutcome) =>
  outcome.kind === 'answered' &&
  outcome.status === 503 &&
  outcome.body.errors?.[0]?.extensions?.code === 'SERVICE_UNAVAILABLE' &&
  typeof outcome.body.errors[0].extensions.retryAfterSeconds === 'number';

describe('the embedded Postgres killed under load', () => {
  it('answers coded 503s meanwhile, starts Postgres again, and serves with its locks intact', async () => {
    const api = await serving();
    const alice = await signIn(api, 'alice');
    const token = await acquire(api, alice, 'products');
    const load = keepCalling(api, alice, 4);
    await waitFor('load served', 10_000, () => load.outcomes.some(isServed));

    const killed = await runningPostgres(clusterDir, postgresPids);
    process.kill(killed, 'SIGKILL');
    await waitFor('a coded 503 during the outage', RECOVER_WITHIN_MS, () =>
      load.outcomes.some(isCodedUnavailable),
    );
    const during = load.outcomes.length;
    await waitFor('served again', RECOVER_WITHIN_MS, () =>
      load.outcomes.slice(during).some(isServed),
    );
    await load.stop();

    const unexpected = load.outcomes.filter((o) => !isServed(o) && !isCodedUnavailable(o));
    expect(unexpected).toEqual([]);
    const restarted = await runningPostgres(clusterDir, postgresPids);
    expect(restarted).not.toBe(killed);

    // The lock taken before the crash is still alice's, and her token still releases it.
    const release = await postOnOwnConnection(api.url, { cookie: alice }, RELEASE, {
      table: 'products',
      token,
    });
    expect(release).toMatchObject({
      kind: 'answered',
      body: { data: { releaseTableLock: { name: 'products', status: 'normal' } } },
    });

    // Ready again: the live feed listens again too.
    await waitFor('ready', RECOVER_WITHIN_MS, async () =>
      fetch(`${api.url}/readyz`).then((r) => r.ok),
    );
    const said = (msg: string) => logLines(api).filter((line) => line.msg === msg).length;
    expect(said('embedded Postgres stopped unexpectedly; starting it again')).toBe(1);
    expect(said('embedded Postgres running again')).toBe(1);
    expect(said('database unreachable')).toBe(1);
    await waitFor('"database back" logged', 10_000, () => said('database back') === 1);
    // The death is the one error; no stack trace anywhere.
    expect(logLines(api).filter((line) => line.level >= 50)).toHaveLength(1);
    expect(api.output()).not.toMatch(/"stack"|\n\s+at /);
  });
});

describe('SIGTERM under load', () => {
  /** Holds table_lock rows so that saves and lock changes touching them wait; `release` lets them go. */
  async function holdLockRows(tables: string[]) {
    // One connection holds the rows; another watches who waits, each look a fresh one (inside a
    // transaction, Postgres would show the activity as it was at the transaction's first look).
    const [holder, watcher] = [new pg.Client(databaseUrl()), new pg.Client(databaseUrl())];
    for (const client of [holder, watcher]) {
      // The API stops its Postgres when it stops, and these connections with it.
      client.on('error', () => {});
      await client.connect();
    }
    await holder.query('BEGIN');
    await holder.query('SELECT 1 FROM tablelock.table_lock WHERE table_name = ANY($1) FOR UPDATE', [
      tables,
    ]);
    const waiting = async () => {
      const { rows } = await watcher.query<{ count: string }>(
        `SELECT count(*) FROM pg_stat_activity
         WHERE wait_event_type = 'Lock' AND datname = current_database()`,
      );
      return Number(rows[0]?.count);
    };
    let released: Promise<void> | undefined;
    return {
      waiting,
      release() {
        released ??= (async () => {
          await holder.query('COMMIT').catch(() => {});
          await Promise.all([holder.end(), watcher.end()]);
        })();
        return released;
      },
    };
  }

  it('lets the requests in flight finish, takes no new ones, and exits 0', async () => {
    const api = await serving();
    const [alice, bob] = await Promise.all([signIn(api, 'alice'), signIn(api, 'bob')]);
    const aliceToken = await acquire(api, alice, 'price_lists');
    const bobToken = await acquire(api, bob, 'warehouses');
    const blocker = await holdLockRows(['price_lists', 'warehouses']);
    try {
      // Two saves whose fence waits for the rows: in flight when the stop begins, for as long as
      // the rows are held.
      const inFlight = [
        postOnOwnConnection(api.url, { cookie: alice }, SAVE_NOTHING, {
          table: 'price_lists',
          token: aliceToken,
        }),
        postOnOwnConnection(api.url, { cookie: bob }, SAVE_NOTHING, {
          table: 'warehouses',
          token: bobToken,
        }),
      ];
      await waitFor(
        'both waiting in the database',
        30_000,
        async () => (await blocker.waiting()) === 2,
      );
      const load = keepCalling(api, alice, 4);
      await waitFor('load served', 10_000, () => load.outcomes.some(isServed));

      api.child.kill('SIGTERM');
      await waitFor('no new connections taken', STOP_WITHIN_MS, async () => {
        const probe = await postOnOwnConnection(api.url, { cookie: alice }, TABLES);
        return probe.kind === 'unanswered' && probe.code === 'ECONNREFUSED';
      });
      expect(hasExited(api)).toBe(false);
      await blocker.release();

      const saved = expect.objectContaining({
        kind: 'answered',
        status: 200,
        body: { data: { saveRows: { saved: true } } },
      });
      expect(await Promise.all(inFlight)).toEqual([saved, saved]);
      await waitFor('exit after SIGTERM', STOP_WITHIN_MS, () => hasExited(api));
      await load.stop();
      expect(await api.exited, api.output()).toEqual({ code: 0, signal: null });
      // Every call was answered in full or got no answer at all (refused, or reset before it was
      // read); none got an error or half an answer. The requests surely taken are those above.
      expect(load.outcomes.filter((o) => !isServed(o) && o.kind !== 'unanswered')).toEqual([]);
      expect(logLines(api).at(-1)?.msg).toBe('stopped');
    } finally {
      await blocker.release();
    }
  });

  it('cuts a request still running after SHUTDOWN_DRAIN_SECONDS, and exits 0 within 5 s more', async () => {
    const api = await serving({ SHUTDOWN_DRAIN_SECONDS: '1' });
    const alice = await signIn(api, 'alice');
    const token = await acquire(api, alice, 'customers');
    const blocker = await holdLockRows(['customers']);
    try {
      const stuck = postOnOwnConnection(api.url, { cookie: alice }, SAVE_NOTHING, {
        table: 'customers',
        token,
      });
      await waitFor(
        'the save waiting in the database',
        30_000,
        async () => (await blocker.waiting()) === 1,
      );
      const stopAsked = Date.now();
      api.child.kill('SIGTERM');
      expect(await stuck).toEqual({ kind: 'unanswered', code: 'ECONNRESET' });
      await waitFor('exit after SIGTERM', 6_000, () => hasExited(api));
      expect(await api.exited, api.output()).toEqual({ code: 0, signal: null });
      expect(Date.now() - stopAsked).toBeGreaterThanOrEqual(1_000);
    } finally {
      await blocker.release();
    }
  });
});
