import { acquireTableLock, grantedOrConflict, releaseTableLock } from '@tablelock/lock';
import { scheduleEditor } from '@tablelock/master-data';
import {
  type ApiProcess,
  MASTER_SCHEMA,
  type PostgresServer,
  poll,
  type ReplicatedDatabase,
  startApiProcess,
  startReplicatedDatabase,
  stopApiProcess,
  twoPorts,
} from '@tablelock/test-support';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scheduleRename } from './support/scheduledRename';

// Issue 44: a scheduled change request survives a database failover, no double apply, no loss
// (docs/decisions/0023: the request's state is the guard, not the process that claimed it).
// Two API processes on the replica set's multi-host URL, which follow the promotion. Two
// requests fall due before the primary is killed and wait in line, claimed by a process that
// is then stopped through the failover and comes back after the other took them over; one
// is being applied by the other process when the primary is lost; one falls due while no primary
// is up; one is scheduled on the promoted standby.
/** What the issue asks of every API process after a failover (failoverReconnect.test.ts). */
const SERVE_AGAIN_WITHIN_MS = 10_000;
/** A request's application, once its time has come and a process serves. */
const APPLIED_WITHIN_MS = 30_000;
/**
 * A run the failover cut off, from the process serving again: tried again as soon as the
 * database is back (the "on the minute"), not at the scheduler's recheck 30 s later.
 */
const CUT_OFF_RUN_AGAIN_WITHIN_MS = 10_000;

let replicated: ReplicatedDatabase;
const started: ApiProcess[] = [];
let ports: [number, number];

beforeAll(async () => {
  replicated = await startReplicatedDatabase();
  ports = await twoPorts();
  await startApiProcess('A', replicated.database.url, ports[0], started);
});

afterAll(async () => {
  // SIGCONT first, so that a process stopped by the test is not left stopped with SIGTERM queued.
  for (const api of started) if (api.child.pid) process.kill(api.child.pid, 'SIGCONT');
  await Promise.all(started.splice(0).map(stopApiProcess));
  await replicated?.close();
});

/** alice's rename of row `id` of `table`, due `seconds` from now on the database's clock. */
async function scheduleRowRename(table: string, id: number, name: string, seconds: number) {
  const request = await scheduleRename(replicated.database.prisma, {
    table,
    author: 'alice',
    id,
    name,
    seconds,
  });
  expect(request.state).toBe('scheduled');
  return { ...request, table, row: id, name };
}
type Scheduled = Awaited<ReturnType<typeof scheduleRowRename>>;

/** Waits on `server` (a standby answers reads) until `at` plus `seconds` has passed on its clock. */
async function untilPassed(server: PostgresServer, at: Date, seconds: number) {
  const client = new pg.Client({ connectionString: server.url() });
  await client.connect();
  try {
    await poll(`${at.toISOString()} + ${seconds} s passed`, 30_000, async () => {
      const { rows } = await client.query<{ passed: boolean }>(
        `SELECT $1::timestamptz + make_interval(secs => $2) < clock_timestamp() AS passed`,
        [at, seconds],
      );
      return rows[0]?.passed ? true : undefined;
    });
  } finally {
    await client.end();
  }
}

function untilDone(id: string) {
  return poll(`change request ${id} applied or failed`, APPLIED_WITHIN_MS, async () => {
    const request = await replicated.database.prisma.changeRequest.findUniqueOrThrow({
      where: { id: BigInt(id) },
    });
    return request.state === 'scheduled' ? undefined : request;
  });
}

/**
 * What the application of `request` left on the database: its change sets, its
 * `request_applied` events, the scheduled change sets in its row's history, the row's name.
 */
async function traces(request: Scheduled) {
  const { prisma } = replicated.database;
  const changeSets = await prisma.changeSet.findMany({
    where: { changeRequestId: BigInt(request.id) },
    select: { kind: true, rowsUpdated: true },
  });
  const applied = await prisma.lockEvent.count({
    where: {
      action: 'request_applied',
      details: { path: ['changeRequestId'], equals: request.id },
    },
  });
  const history = await prisma.$queryRaw<{ changeRequestId: string | null; name: string }[]>`
    SELECT s.change_request_id::text AS "changeRequestId", c.new_values ->> 'name' AS name
    FROM tablelock.row_change AS c JOIN tablelock.change_set AS s ON s.id = c.change_set_id
    WHERE c.table_name = ${request.table} AND c.row_key ->> 'id' = ${String(request.row)}
      AND s.kind = 'scheduled'
    ORDER BY c.id`;
  const [row] = await prisma.$queryRawUnsafe<{ name: string }[]>(
    `SELECT name FROM ${MASTER_SCHEMA}.${request.table} WHERE id = $1`,
    request.row,
  );
  return { changeSets, applied, history, name: row?.name };
}

/** Applied once: one change set of kind `scheduled`, one event, one entry in the row's history. */
async function expectAppliedOnce(request: Scheduled) {
  const done = await untilDone(request.id);
  // The failure, if any, is what tells why: it is in the comparison.
  expect({ state: done.state, failure: done.failure }).toEqual({ state: 'applied', failure: null });
  expect(done.appliedAt?.getTime()).toBeGreaterThanOrEqual(request.effectiveAt.getTime());
  expect(await traces(request)).toEqual({
    changeSets: [{ kind: 'scheduled', rowsUpdated: 1 }],
    applied: 1,
    history: [{ changeRequestId: request.id, name: request.name }],
    name: request.name,
  });
  return done;
}

/** `editor` takes `table`; the lock's token. */
async function hold(table: string, editor: string) {
  const granted = await acquireTableLock(replicated.database.prisma, {
    tableName: table,
    editor,
    leaseSeconds: 600,
  });
  return grantedOrConflict(granted).fencingToken;
}

/**
 * Holds `request`'s row on `primary` (FOR UPDATE, in a transaction left open), so that its
 * application waits there until the primary is lost.
 */
async function holdRowOnPrimary(primary: PostgresServer, request: Scheduled) {
  const client = new pg.Client({ connectionString: primary.url('tablelock') });
  // The primary is killed under this connection: its end is expected, not an error.
  client.on('error', () => {});
  await client.connect();
  await client.query('BEGIN');
  await client.query(`SELECT 1 FROM ${MASTER_SCHEMA}.${request.table} WHERE id = $1 FOR UPDATE`, [
    request.row,
  ]);
}

/** How a request stands, on the database (the promoted standby, after the failover). */
const requestOf = (request: Scheduled) =>
  replicated.database.prisma.changeRequest.findUniqueOrThrow({ where: { id: BigInt(request.id) } });

/** Whether someone waits in line for a table as `editor`. */
async function waiting(editor: string) {
  return (await replicated.database.prisma.lockWaiter.count({ where: { editor } })) > 0;
}

async function untilServes(api: ApiProcess) {
  await poll(`${api.name} serves`, SERVE_AGAIN_WITHIN_MS, async () => {
    const response = await fetch(`${api.url}/readyz`);
    return response.ok ? true : undefined;
  });
}

/**
 * Waits until the run `api` had of `request` when it was stopped has ended, after the event
 * `after`: it took the table again as the request's editor and let it go.
 */
async function untilStaleRunEnded(api: ApiProcess, request: Scheduled, after: bigint) {
  const { prisma } = replicated.database;
  const editor = scheduleEditor(request.id);
  await poll(
    `${api.name}'s own run of request ${request.id} ended`,
    APPLIED_WITHIN_MS,
    async () => {
      const taken = await prisma.lockEvent.count({
        where: { id: { gt: after }, tableName: request.table, editor, action: 'acquire' },
      });
      const held = await prisma.tableLock.count({ where: { tableName: request.table, editor } });
      return taken > 0 && held === 0 ? true : undefined;
    },
  );
}

describe('scheduled change requests across a failover', () => {
  it('each is applied exactly once on the promoted standby, none lost: one cut off mid-apply once the database is back, one due during the outage after it, marked late', async () => {
    const { replicas, database } = replicated;
    const { prisma } = database;
    const [p0, ...standbys] = replicas.servers as [PostgresServer, ...PostgresServer[]];
    const [a] = started as [ApiProcess];
    const inLine = [
      await scheduleRowRename('warehouses', 1, 'Tokyo central (failover)', 2),
      await scheduleRowRename('warehouses', 2, 'Osaka bay (failover)', 2),
    ];
    // bob holds the table through the failover: at their time A, the only process yet, claims
    // both requests and waits in line with them.
    const bobs = await hold('warehouses', 'bob');
    for (const request of inLine) {
      await poll(`A in line with request ${request.id}`, APPLIED_WITHIN_MS, async () =>
        (await waiting(scheduleEditor(request.id))) ? true : undefined,
      );
    }
    const claimedByA = (await requestOf(inLine[0] as Scheduled)).claimedBy;
    expect(claimedByA).not.toBeNull();
    const b = await startApiProcess('B', database.url, ports[1], started);

    // A is slow to come back: stopped through the failover, while its claims and its places in
    // line stay on the promoted standby. B, back first, takes the requests over.
    process.kill(a.child.pid as number, 'SIGSTOP');
    // B is applying a request of its own when the primary is lost: its write waits for a row
    // the test holds on the primary.
    const cutOff = await scheduleRowRename('categories', 2, 'Beverages (failover)', 2);
    await holdRowOnPrimary(p0, cutOff);
    await poll(`B applying request ${cutOff.id}`, APPLIED_WITHIN_MS, async () => {
      const taken = await prisma.tableLock.count({
        where: { tableName: cutOff.table, editor: scheduleEditor(cutOff.id) },
      });
      return taken > 0 ? true : undefined;
    });
    // Due after the primary is lost: it outlasts the request's time by more than a second.
    const duringOutage = await scheduleRowRename('customers', 1, 'Customer one (failover)', 4);
    await p0.kill();
    await untilPassed(standbys[0] as PostgresServer, duringOutage.effectiveAt, 1);
    await replicas.failOver(standbys);
    await untilServes(b);
    const servedAgain = Date.now();
    // B's run the failover cut off is tried again once the database is back.
    await poll(`request ${cutOff.id} applied`, CUT_OFF_RUN_AGAIN_WITHIN_MS, async () =>
      (await requestOf(cutOff)).state === 'scheduled' ? undefined : true,
    );
    const again = await expectAppliedOnce(cutOff);
    // Reported, not asserted beyond the bound above: it depends on the machine's load.
    console.info(
      `request cut off by the failover applied ${(again.appliedAt?.getTime() ?? 0) - servedAgain} ms after B served again`,
    );
    await poll('B taking the requests in line over', APPLIED_WITHIN_MS, async () => {
      const claims = await Promise.all(inLine.map(async (r) => (await requestOf(r)).claimedBy));
      return claims.every((claimedBy) => claimedBy !== claimedByA) ? true : undefined;
    });
    await releaseTableLock(prisma, { tableName: 'warehouses', editor: 'bob', token: bobs });
    for (const request of inLine) await untilDone(request.id);
    const late = await expectAppliedOnce(duringOutage);
    expect(late.lateBySeconds).toBeGreaterThanOrEqual(1);

    // A goes on where it stopped, with its own runs of the requests B applied meanwhile.
    const [last] = await prisma.lockEvent.findMany({ orderBy: { id: 'desc' }, take: 1 });
    process.kill(a.child.pid as number, 'SIGCONT');
    await untilServes(a);
    for (const request of inLine) await untilStaleRunEnded(a, request, last?.id ?? 0n);
    for (const request of inLine) await expectAppliedOnce(request);
    // Both processes serve the promoted standby: a request scheduled there is applied once.
    await expectAppliedOnce(await scheduleRowRename('categories', 3, 'Household (failover)', 2));
  });
});
