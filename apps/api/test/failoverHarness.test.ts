import { randomUUID } from 'node:crypto';
import { lockInvariantViolations } from '@tablelock/lock';
import { createWebhook } from '@tablelock/outbox';
import {
  type ApiProcess,
  createTestApiKey,
  type PostgresServer,
  poll,
  type ReplicaSet,
  type ReplicatedDatabase,
  startApiProcess,
  startReplicatedDatabase,
  stopApiProcess,
  twoPorts,
} from '@tablelock/test-support';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import {
  fallingTokens,
  lineBreaches,
  lockHistory,
  lostAcknowledgements,
  repeatedTokens,
  savesBehindSupersededTokens,
} from './support/failoverChecks';
import { failoverLine, LINE_TABLE, type LineClient } from './support/failoverLine';
import { type Acknowledgement, failoverLoad } from './support/failoverLoad';
import { postOnOwnConnection } from './support/postOnOwnConnection';
import { readRegistry } from './support/registry';
import {
  startWebhookReceiver,
  type WebhookReceiver,
  withoutRepeats,
} from './support/webhookReceiver';

const CLIENTS = 16;
/** Clients in the line for one table; the first two go through before the primary is killed. */
const WAITERS = 5;
const WAITERS_THROUGH_BEFORE = 2;
/** Turns of load per client before the kill and after the promotion. */
const ROUNDS = 6;
const SERVE_AGAIN_WITHIN_MS = 10_000;
const SAMPLE_EVERY_MS = 50;
/** A run: a replica set and two API processes started, load, a failover, load again. */
const RUN_TIMEOUT_MS = 150_000;

let replicated: ReplicatedDatabase | undefined;
const started: ApiProcess[] = [];
let receiver: WebhookReceiver | undefined;

afterEach(async () => {
  await Promise.all(started.splice(0).map(stopApiProcess));
  await receiver?.stop();
  receiver = undefined;
  await replicated?.close();
  replicated = undefined;
});

/**
 * One run: load and the line, the fault (`before`, then the primary SIGKILLed while one waiter
 * holds the line's table and the rest wait), the standby furthest ahead promoted and the other
 * following it, load again and the line going on; the history read from the new primary.
 */
async function failoverRun(
  settings: Record<string, string>,
  before: (
    replicas: ReplicaSet,
    acknowledged: Acknowledgement[],
    outcomeUnknown: () => number,
  ) => Promise<void> = async () => {},
  waiterCount = WAITERS,
  apiSettings: [Record<string, string>, Record<string, string>] = [{}, {}],
) {
  replicated = await startReplicatedDatabase(settings);
  const { database, replicas } = replicated;
  // One after another: 16 transactions at once can outwait Prisma's 2 s for a connection.
  const keys: string[] = [];
  for (let client = 0; client < CLIENTS; client++) {
    keys.push(await createTestApiKey(database.prisma, `client-${client}`, 'editor'));
  }
  const lineClient = async (name: string): Promise<LineClient> => ({
    editor: `key:${name}`,
    key: await createTestApiKey(database.prisma, name, 'editor'),
  });
  const holder = await lineClient('line-holder');
  const waiters: LineClient[] = [];
  for (let waiter = 0; waiter < waiterCount; waiter++)
    waiters.push(await lineClient(`waiter-${waiter}`));
  const [portA, portB] = await twoPorts();
  // At once: their write guard syncs take turns (an advisory lock).
  const apis = await Promise.all([
    startApiProcess('A', database.url, portA, started, apiSettings[0]),
    startApiProcess('B', database.url, portB, started, apiSettings[1]),
  ]);
  const load = failoverLoad(apis, keys);
  const line = failoverLine(apis, load, holder, waiters, WAITERS_THROUGH_BEFORE);

  // The line first: the load's first rounds must still run when the primary is killed.
  await Promise.race([line.holding, line.done]);
  const first = load.run(ROUNDS);
  await poll('load under way', 10_000, async () =>
    load.acknowledged.length >= CLIENTS ? true : undefined,
  );
  await before(replicas, load.acknowledged, load.outcomeUnknown);
  const [p0, ...standbys] = replicas.servers as PostgresServer[];
  await p0?.kill();
  const acknowledgedBeforeKill = load.acknowledged.length;
  for (const standby of standbys) if (!standby.pid()) await standby.start();
  await replicas.failOver(standbys);
  for (const api of apis) {
    await poll(`${api.name} serves again`, SERVE_AGAIN_WITHIN_MS, async () => {
      // Refused or gone, the process's own log says why.
      const response = await fetch(`${api.url}/readyz`).catch((error: Error) => {
        const { exitCode, signalCode } = api.child;
        throw new Error(
          `API ${api.name} (exit: ${exitCode ?? signalCode ?? 'none'}): ${error.message}: ${api.output.join('')}`,
        );
      });
      return response.ok ? true : undefined;
    });
  }
  // The snapshot invariants, sampled while the clients carry on on the new primary.
  const violations: string[] = [];
  let samples = 0;
  let loading = true;
  const sampler = (async () => {
    while (loading) {
      violations.push(...lockInvariantViolations(await readRegistry(database.prisma)));
      samples++;
      // A sample every 50 ms: reading without pause would take the CPU from the clients.
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_EVERY_MS));
    }
  })();
  line.resume();
  await first;
  await Promise.all([load.run(ROUNDS), line.done]);
  loading = false;
  await sampler;

  const history = await lockHistory(database.prisma);
  return {
    acknowledged: load.acknowledged,
    lost: lostAcknowledgements(load.acknowledged, history),
    outcomeUnknown: load.outcomeUnknown(),
    line: line.acknowledged,
    history,
    invariants: { violations, samples },
    apis,
    keys,
    old: p0 as PostgresServer,
    acknowledgedBeforeKill,
  };
}

/** Sessions on `primary` whose commit waits for a synchronous standby; `cancel`: cancels them. */
async function commitsWaitingForStandby(primary: PostgresServer, cancel = false): Promise<number> {
  const client = new pg.Client({ connectionString: primary.url() });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE wait_event = 'SyncRep'`,
    );
    // One by one: in a WHERE clause beside the filter, Postgres may cancel any session first.
    if (cancel)
      for (const { pid } of rows) await client.query('SELECT pg_cancel_backend($1)', [pid]);
    return rows.length;
  } finally {
    await client.end();
  }
}

/**
 * Alone on the primary, as long as an operator's drill leaves it so: at least ALONE_MS, and on
 * until a client has been answered OUTCOME_UNKNOWN (what the scenario is about), which under the
 * suite's load can take longer (a full run's 10 s cancelled 15 waits and none was a client's).
 */
const ALONE_MS = 10_000;
const ALONE_AT_MOST_MS = 60_000;
const CANCEL_EVERY_MS = 1_000;

/** Every acknowledgement is on the new primary, tokens rise, the lock invariants hold. */
function expectAcknowledgementsKept(run: Awaited<ReturnType<typeof failoverRun>>) {
  expect(run.lost).toEqual([]);
  expect(fallingTokens(run.acknowledged)).toEqual([]);
  expect(repeatedTokens(run.acknowledged)).toEqual([]);
  expect(savesBehindSupersededTokens(run.history)).toEqual([]);
  expect(run.invariants.samples).toBeGreaterThan(0);
  expect(run.invariants.violations).toEqual([]);
}

/** The checks every run with synchronous commit passes. */
function expectNothingLost(run: Awaited<ReturnType<typeof failoverRun>>) {
  console.info(`OUTCOME_UNKNOWN answers: ${run.outcomeUnknown}`);
  // The load saved rows on both sides of the failover. (How many is a race: of the clients that
  // try a table at once one wins, and the others go on to their next round.)
  const isSave = (ack: Acknowledgement) => ack.action === 'save';
  expect(run.acknowledged.slice(0, run.acknowledgedBeforeKill).some(isSave)).toBe(true);
  expect(run.acknowledged.slice(run.acknowledgedBeforeKill).some(isSave)).toBe(true);
  expectAcknowledgementsKept(run);
  const granted = run.line.filter((ack) => ack.event === 'granted');
  console.info(`waiters in line: ${WAITERS}, granted: ${granted.length}`);
  expect(run.line.filter((ack) => ack.event === 'inLine')).toHaveLength(WAITERS);
  expect(lineBreaches(run.line, run.history, LINE_TABLE)).toEqual([]);
  expect(granted).toHaveLength(WAITERS);
}

describe('the failover harness: two API processes, 16 clients, the primary killed mid-load', () => {
  it(
    'loses nothing acknowledged, and tokens rise per table across the promotion',
    async () => {
      const run = await failoverRun({});
      expectNothingLost(run);

      // Scenario d: the old primary back alone, every other server down. The APIs still list
      // it, and refuse it: it is on timeline 1, behind the 2 they have seen.
      const { replicas } = replicated as ReplicatedDatabase;
      await Promise.all(replicas.servers.map((server) => server.stop()));
      await run.old.start();
      for (const api of run.apis) {
        await poll(`${api.name} not ready`, SERVE_AGAIN_WITHIN_MS, async () =>
          (await fetch(`${api.url}/readyz`)).status === 503 ? true : undefined,
        );
      }
      const refused = await postOnOwnConnection(
        (run.apis[0] as ApiProcess).url,
        { authorization: `Bearer ${run.keys[0]}` },
        `mutation($key: String) { acquireTableLock(table: "warehouses", idempotencyKey: $key) { token } }`,
        { key: randomUUID() },
      );
      expect(refused).toMatchObject({
        kind: 'answered',
        body: { errors: [{ extensions: { code: 'SERVICE_UNAVAILABLE' } }] },
      });
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'scenario b: with both standbys stopped no commit is acknowledged; then the primary is lost',
    async () => {
      let whileAlone: Acknowledgement[] = [];
      const run = await failoverRun({}, async (replicas, acknowledged) => {
        await replicas.server('s1').stop();
        await replicas.server('s2').stop();
        const standbysGone = acknowledged.length;
        // Commits now wait for a standby that does not come: clients are held there.
        await poll('commits waiting for a standby', 10_000, async () =>
          (await commitsWaitingForStandby(replicas.server('p0'))) > 0 ? true : undefined,
        );
        whileAlone = acknowledged.slice(standbysGone);
      });
      // Answers that came meanwhile are of commits a standby had confirmed before it stopped.
      expect(lostAcknowledgements(whileAlone, run.history)).toEqual([]);
      expectNothingLost(run);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'scenario e: standbys stopped, every wait for them cancelled each second, clients retrying with their keys; then the primary is lost',
    async () => {
      let cancelled = 0;
      const webhooks = { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_FIRST_RETRY_MS: '50' };
      const run = await failoverRun(
        {},
        async (replicas, _acknowledged, outcomeUnknown) => {
          // A receiver of every event of the load's tables, from here on.
          receiver = await startWebhookReceiver();
          const { database } = replicated as ReplicatedDatabase;
          const endpoint = { url: receiver.url, eventTypes: [], tables: [], withRows: false };
          receiver.secret = (
            await createWebhook(database.prisma, endpoint, 'admin', ['127.0.0.1'])
          ).secret;
          await Promise.all(['s1', 's2'].map((name) => replicas.server(name).stop()));
          // What a statement_timeout, a pooler or an impatient operator does to those waits:
          // each cancelled commit is kept on the primary alone, and its client retries it.
          const primary = replicas.server('p0');
          const start = Date.now();
          const alone = () =>
            Date.now() - start < ALONE_MS ||
            (outcomeUnknown() === 0 && Date.now() - start < ALONE_AT_MOST_MS);
          while (alone()) {
            cancelled += await commitsWaitingForStandby(primary, true);
            await new Promise((resolve) => setTimeout(resolve, CANCEL_EVERY_MS));
          }
        },
        // Without the line: its waiters cannot renew their place while no commit is kept, and
        // are dropped as gone, which is not what this scenario is about.
        0,
        // Both kinds of process: one refusing changes without a standby, one taking them.
        [{ ...webhooks, REQUIRE_SYNC_REPLICA: 'true' }, webhooks],
      );
      console.info(`sync waits cancelled: ${cancelled}`);
      expect(cancelled).toBeGreaterThan(0);
      expect(run.outcomeUnknown).toBeGreaterThan(0);
      expectAcknowledgementsKept(run);

      const delivered = withoutRepeats((receiver as WebhookReceiver).received);
      console.info(`webhook events delivered: ${delivered.length}`);
      expect(delivered.length).toBeGreaterThan(0);
      const { database } = replicated as ReplicatedDatabase;
      const missing: string[] = [];
      for (const { payload } of delivered) {
        const { type, timestamp: at } = payload;
        const { id, table } = payload.data;
        const [kept] = await database.prisma.$queryRaw<{ count: number }[]>`
          SELECT count(*)::int AS count FROM tablelock.outbox_event
          WHERE position = ${BigInt(id)} AND table_name = ${table} AND type = ${type}
            AND at = ${at}::timestamptz`;
        if (kept?.count !== 1) missing.push(`${table} ${id} ${type} ${at}`);
      }
      expect(missing).toEqual([]);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'negative control: with synchronous_commit = off the same check finds acknowledged grants lost',
    async () => {
      // Without the line: with commits lost, a waiter may wait out its whole wait.
      const run = await failoverRun(
        { synchronous_commit: 'off', wal_writer_delay: '10s' },
        async () => {},
        0,
      );
      expect(run.lost.length).toBeGreaterThan(0);
    },
    RUN_TIMEOUT_MS,
  );
});
