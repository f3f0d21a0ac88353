import type { PostgresServer } from '@tablelock/test-support';
import { poll } from '@tablelock/test-support';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { acquireTableLockMutation, releaseTableLockMutation } from './support/lockOperations';
import { postOnOwnConnection } from './support/postOnOwnConnection';
import { type ReplicatedTestApi, startReplicatedTestApi } from './support/replicatedTestApi';
import type { TestClient } from './support/testApi';

let setup: ReplicatedTestApi;
let holder: TestClient;
let carol: TestClient;

const TABLE = 'categories';

interface Acquired {
  token?: string;
  editor?: string;
  code?: string;
}

/**
 * Sends on a connection of its own, as the failover harness does: with waits held open, a
 * request sent through fetch's shared pool waited until a wait ended.
 */
async function send(client: TestClient, query: string, variables: Record<string, unknown>) {
  const outcome = await postOnOwnConnection(setup.api.url, client.headers, query, variables);
  if (outcome.kind !== 'answered') throw new Error(`no answer: ${outcome.code}`);
  return outcome.body;
}

/** acquireTableLock of TABLE: the grant, or the error's code. */
async function acquire(client: TestClient, variables: Record<string, unknown>): Promise<Acquired> {
  const body = await send(client, acquireTableLockMutation.toString(), {
    table: TABLE,
    ...variables,
  });
  const grant = body.data?.acquireTableLock as Acquired | undefined;
  return grant ?? { code: String(body.errors?.[0]?.extensions?.code) };
}

/** A waiting acquisition (60 s at most). */
const waitFor = (client: TestClient, variables: { key?: string }) =>
  acquire(client, { wait: 60, ...variables });

beforeAll(async () => {
  setup = await startReplicatedTestApi();
  holder = await setup.api.withApiKey('holder', 'editor');
  carol = await setup.api.withApiKey('carol', 'editor');
});

afterAll(async () => {
  await setup?.stop();
});

beforeEach(async () => {
  await setup.database.prisma.lockWaiter.deleteMany();
});

/** Ends the wait for a standby of the statement that joins the line: it stays committed. */
async function cancelJoinWaitingForStandby(primary: PostgresServer): Promise<void> {
  const client = new pg.Client({ connectionString: primary.url() });
  await client.connect();
  try {
    const backend = await poll('a join waiting for a standby', 20_000, async () => {
      const { rows } = await client.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity
         WHERE wait_event = 'SyncRep' AND query LIKE '%INSERT INTO tablelock.lock_waiter%'`,
      );
      return rows[0]?.pid;
    });
    await client.query('SELECT pg_cancel_backend($1)', [backend]);
  } finally {
    await client.end();
  }
}

/** nightly's wait whose join committed while its answer was lost: OUTCOME_UNKNOWN. */
async function lostJoin(key: string): Promise<void> {
  const { replicas } = setup;
  // Each key's first use is recorded (a commit of its own) before the standbys go.
  for (const client of [setup.batch, holder, carol]) {
    expect((await client.graphql('{ tables { name } }')).errors).toBeUndefined();
  }
  await replicas.server('s1').stop();
  await replicas.server('s2').stop();
  const answer = waitFor(setup.batch, { key });
  await cancelJoinWaitingForStandby(replicas.server('p0'));
  expect(await answer).toEqual({ code: 'OUTCOME_UNKNOWN' });
  await replicas.server('s1').start();
  await replicas.server('s2').start();
  expect(await setup.database.prisma.lockWaiter.count({ where: { editor: 'key:nightly' } })).toBe(
    1,
  );
}

async function hold(): Promise<string> {
  const held = await acquire(holder, { lease: 600 });
  if (!held.token) throw new Error(`the holder got no grant: ${held.code}`);
  return held.token;
}

/** Resolves once a request other than the lost one serves `editor`'s place in line. */
async function placeTakenUp(editor: string): Promise<void> {
  const attempt = async () => {
    const rows = await setup.database.prisma.$queryRaw<{ attempt: string }[]>`
      SELECT attempt FROM tablelock.lock_waiter WHERE editor = ${editor}`;
    return rows[0]?.attempt;
  };
  const lost = await attempt();
  await poll(`${editor}'s place taken up`, 20_000, async () =>
    (await attempt()) !== lost ? true : undefined,
  );
}

async function release(client: TestClient, token: string): Promise<void> {
  const body = await send(client, releaseTableLockMutation.toString(), { table: TABLE, token });
  expect(body.errors).toBeUndefined();
}

/** carol joins the line behind everyone in it; `granted` is her wait's answer. */
async function carolWaits(): Promise<{ granted: Promise<Acquired> }> {
  const granted = waitFor(carol, {});
  await poll('carol in line', 10_000, async () =>
    (await setup.database.prisma.lockWaiter.count({ where: { editor: 'key:carol' } })) > 0
      ? true
      : undefined,
  );
  return { granted };
}

describe('a join whose answer was lost (its commit kept)', () => {
  it('is taken up again by a retry with the same idempotency key, in the same place', async () => {
    const token = await hold();
    await lostJoin('nightly-join');
    const carolGranted = (await carolWaits()).granted;

    // The retry while the table is still held: it must wait in line, in the lost join's place.
    const retrying = waitFor(setup.batch, { key: 'nightly-join' });
    await Promise.race([retrying, placeTakenUp('key:nightly')]);
    await release(holder, token);
    const retried = await retrying;
    expect(retried).toMatchObject({ editor: 'key:nightly' });
    // carol joined behind the lost join: she waits until nightly is done.
    expect(await setup.database.prisma.lockWaiter.count({ where: { editor: 'key:carol' } })).toBe(
      1,
    );
    await release(setup.batch, retried.token as string);
    const granted = await carolGranted;
    expect(granted).toMatchObject({ editor: 'key:carol' });
    const joins = await setup.database.prisma.lockEvent.count({
      where: { action: 'queued', editor: 'key:nightly' },
    });
    expect(joins).toBe(1);
    await release(carol, granted.token as string);
  }, 90_000);

  it('holds nobody up for good when no retry comes: the sweeper gives it up', async () => {
    const token = await hold();
    await lostJoin('nightly-gone');
    const carolGranted = (await carolWaits()).granted;
    await release(holder, token);

    // The sweeper's round once a retry had time to come (none came).
    await setup.api.unfinishedLeaves.finish(setup.database.prisma, Date.now() + 60_000);
    const granted = await carolGranted;
    expect(granted).toMatchObject({ editor: 'key:carol' });
    expect(await setup.database.prisma.lockWaiter.count()).toBe(0);
    await release(carol, granted.token as string);
  }, 90_000);
});
