import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { ApiProcess } from '../apiProcess';
import { createGraphQLClient } from '../graphqlClient';
import { type LatencySummary, summarizeLatencies } from '../latency';

export interface WaiterReleaseResult {
  waiters: number;
  releases: number;
  /** How long the holder's release took to answer, in ms. */
  releaseMs: LatencySummary;
  /** From the release to the next in line holding the table, in ms. */
  handOverMs: LatencySummary;
  /**
   * Transactions committed or rolled back in the database from each release until things
   * settled (SETTLE_MS after the hand-over), and over as long with nothing going on but the
   * API's timers (the sweeper): the difference is what the release set off.
   */
  transactionsPerRelease: number[];
  idleTransactions: number[];
}

const TABLE = 'products';
const WAIT_SECONDS = 600;
// Long enough for every backend to flush its statistics (Postgres does so at most once a
// second, and when it goes idle) and for the woken waiters to settle.
const SETTLE_MS = 3_000;

const ACQUIRE = `mutation Acquire($table: String!, $wait: Int) {
  acquireTableLock(table: $table, wait: $wait) { token } }`;
const RELEASE = `mutation Release($table: String!, $token: String!) {
  releaseTableLock(table: $table, token: $token) { status } }`;

type Grant = { key: string; token: string };

/**
 * `holderKey` takes the table, `waiterKeys` (one waiter each) wait for it over HTTP; then the
 * table is released `releases` times, each time by the one who got it last. Measures each
 * release's answer time, the hand-over to the next in line, and the transactions it set off
 * (pg_stat_database, beside an idle window of the same length before each). The others are still in
 * line at the end: stopping the API ends their waits.
 */
export async function measureWaiterRelease(
  apiProcess: ApiProcess,
  databaseUrl: string,
  holderKey: string,
  waiterKeys: string[],
  releases: number,
): Promise<WaiterReleaseResult> {
  const api = createGraphQLClient(apiProcess.url, 2);
  const waitersApi = createGraphQLClient(apiProcess.url, waiterKeys.length);
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const granted: Grant[] = [];
  let onGrant: (() => void) | undefined;
  try {
    const first = await api.request<{ acquireTableLock: { token: string } }>(holderKey, ACQUIRE, {
      table: TABLE,
    });
    let holder: Grant = { key: holderKey, token: first.acquireTableLock.token };
    for (const key of waiterKeys) {
      void waitersApi
        .request<{ acquireTableLock: { token: string } }>(key, ACQUIRE, {
          table: TABLE,
          wait: WAIT_SECONDS,
        })
        .then(
          (data) => {
            granted.push({ key, token: data.acquireTableLock.token });
            onGrant?.();
          },
          // The rest are still waiting when the API stops.
          () => {},
        );
    }
    await untilWaiting(db, waiterKeys.length);
    // Joining's own statistics reach pg_stat_database late: let them land before the idle rate.
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const idle: number[] = [];
    const releaseTimes: number[] = [];
    const handOvers: number[] = [];
    const transactions: number[] = [];
    for (let round = 0; round < releases; round++) {
      idle.push(await transactionsOver(db, SETTLE_MS));
      const before = await transactionCount(db);
      const nextGrant = new Promise<void>((resolve) => {
        onGrant = resolve;
      });
      const began = performance.now();
      await api.request(holder.key, RELEASE, { table: TABLE, token: holder.token });
      releaseTimes.push(performance.now() - began);
      await nextGrant;
      handOvers.push(performance.now() - began);
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      transactions.push((await transactionCount(db)) - before);
      const next = granted.shift();
      if (!next) throw new Error('nobody got the table');
      holder = next;
    }
    return {
      waiters: waiterKeys.length,
      releases,
      releaseMs: summarizeLatencies(releaseTimes),
      handOverMs: summarizeLatencies(handOvers),
      transactionsPerRelease: transactions,
      idleTransactions: idle,
    };
  } finally {
    await apiProcess.stop();
    await db.end();
    await Promise.all([api.close(), waitersApi.close()]);
  }
}

async function untilWaiting(db: pg.Client, count: number): Promise<void> {
  for (;;) {
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM tablelock.lock_waiter',
    );
    if ((rows[0]?.n ?? 0) >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function transactionCount(db: pg.Client): Promise<number> {
  const { rows } = await db.query<{ n: string }>(
    `SELECT (xact_commit + xact_rollback)::text AS n FROM pg_stat_database
     WHERE datname = current_database()`,
  );
  // This query is a transaction too.
  return Number(rows[0]?.n ?? 0);
}

/** Transactions over `ms` with nothing going on but the API's own timers. */
async function transactionsOver(db: pg.Client, ms: number): Promise<number> {
  const before = await transactionCount(db);
  await new Promise((resolve) => setTimeout(resolve, ms));
  return (await transactionCount(db)) - before;
}
