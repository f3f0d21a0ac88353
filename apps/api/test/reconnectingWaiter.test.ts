import {
  type ApiProcess,
  createTestApiKey,
  poll,
  type ReplicatedDatabase,
  startApiProcess,
  startReplicatedDatabase,
  stopApiProcess,
  twoPorts,
} from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postOnOwnConnection } from './support/postOnOwnConnection';

let replicated: ReplicatedDatabase;
const started: ApiProcess[] = [];
let a: ApiProcess;
let b: ApiProcess;
let holderKey: string;
let waiterKey: string;

// Leases from 1 s: a lease that runs out shows that A's sweeper went round.
const SETTINGS = { LEASE_MIN_SECONDS: '1' };
const ACQUIRE = `mutation($table: String!, $lease: Int, $wait: Int) {
  acquireTableLock(table: $table, leaseSeconds: $lease, wait: $wait) { token } }`;

beforeAll(async () => {
  replicated = await startReplicatedDatabase();
  const { prisma, url } = replicated.database;
  holderKey = await createTestApiKey(prisma, 'holder', 'editor');
  waiterKey = await createTestApiKey(prisma, 'waiter', 'editor');
  const [portA, portB] = await twoPorts();
  // At once: their write guard syncs take turns (an advisory lock).
  [a, b] = await Promise.all([
    startApiProcess('A', url, portA, started, SETTINGS),
    startApiProcess('B', url, portB, started, SETTINGS),
  ]);
});

afterAll(async () => {
  // Only the process this test stopped, by its pid; SIGCONT first, so that SIGKILL is not queued.
  if (b?.child.pid) process.kill(b.child.pid, 'SIGCONT');
  await Promise.all(started.map(stopApiProcess));
  await replicated?.close();
});

const acquire = (api: ApiProcess, key: string, variables: Record<string, unknown>) =>
  postOnOwnConnection(api.url, { authorization: `Bearer ${key}` }, ACQUIRE, variables);

async function expiries(table: string): Promise<number> {
  const [row] = await replicated.database.prisma.$queryRaw<{ count: number }[]>`
    SELECT count(*)::int AS count FROM tablelock.lock_event
    WHERE table_name = ${table} AND action = 'expire'`;
  return row?.count ?? 0;
}

/** A grant through A with a 1 s lease, and its expiry by a sweeper round. */
async function sweeperRound(table: string): Promise<void> {
  await poll(`${table} granted`, 10_000, async () => {
    const outcome = await acquire(a, holderKey, { table, lease: 1 });
    const granted = outcome.kind === 'answered' && outcome.body.errors === undefined;
    return granted && outcome.status === 200 ? true : undefined;
  });
  await poll(`${table} expired`, 10_000, async () =>
    (await expiries(table)) > 0 ? true : undefined,
  );
}

describe('a waiter whose process is still reconnecting after a failover', () => {
  it('is not dropped by the sweeper of a process that reconnected first', async () => {
    const { prisma } = replicated.database;
    const held = await acquire(a, holderKey, { table: 'regions', lease: 600 });
    expect(held).toMatchObject({ kind: 'answered', status: 200 });
    void acquire(b, waiterKey, { table: 'regions', wait: 120 });
    await poll('B waits in line', 10_000, async () =>
      (await prisma.lockWaiter.count({ where: { editor: 'key:waiter' } })) > 0 ? true : undefined,
    );

    // B is slow to reconnect: stopped through the failover, only A comes back.
    process.kill(b.child.pid as number, 'SIGSTOP');
    const [p0, s1, s2] = replicated.replicas.servers;
    await p0?.kill();
    if (!s1 || !s2) throw new Error('two standbys expected');
    await replicated.replicas.failOver([s1, s2]);
    // Two leases run out on the new primary: A's sweeper has gone through a whole round since.
    await sweeperRound('products');
    await sweeperRound('currencies');

    expect(await prisma.lockWaiter.count({ where: { editor: 'key:waiter' } })).toBe(1);
    const dropped = await prisma.lockEvent.count({
      where: { action: 'dequeued', editor: 'key:waiter' },
    });
    expect(dropped).toBe(0);
  });
});
