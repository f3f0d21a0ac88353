import { createApiKey } from '@tablelock/identity';
import {
  type ApiProcess,
  createTestDatabase,
  startApiProcess,
  stopApiProcess,
  TEST_AUDIT,
  type TestDatabase,
  twoPorts,
} from '@tablelock/test-support';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callWithKey } from './support/callWithKey';
import { type LockChanges, subscribeLockChanges } from './support/lockChanges';
import {
  acquireTableLockMutation,
  granted,
  type LockGrant,
  releaseTableLockMutation,
} from './support/lockOperations';
import { readRegistry } from './support/registry';

const WAITERS = 50;
const HOLD_MS = 100;

let database: TestDatabase;
const processes: ApiProcess[] = [];
let a: ApiProcess;
let b: ApiProcess;
let changes: LockChanges;
const secrets = new Map<string, string>();

const keyName = (name: string) => `key:${name}`;

beforeAll(async () => {
  database = await createTestDatabase();
  const [portA, portB] = await twoPorts();
  [a, b] = await Promise.all([
    startApiProcess('A', database.url, portA, processes),
    startApiProcess('B', database.url, portB, processes),
  ]);
  const names = ['holder', 'watcher', ...Array.from({ length: WAITERS }, (_, i) => `waiter-${i}`)];
  for (const name of names) {
    const role = name === 'watcher' ? 'viewer' : 'editor';
    secrets.set(name, (await createApiKey(database.prisma, { name, role }, TEST_AUDIT)).secret);
  }
  changes = await subscribeLockChanges({
    url: a.url,
    connectionParams: { authorization: `Bearer ${secrets.get('watcher')}` },
    prisma: database.prisma,
  });
}, 60_000);

afterAll(async () => {
  await changes?.close();
  await Promise.all(processes.map(stopApiProcess));
  await database?.close();
});

beforeEach(async () => {
  expect((await readRegistry(database.prisma)).get('products')?.status).toBe('normal');
});

const secretOf = (name: string) => secrets.get(name) ?? '';

function acquire(via: ApiProcess, name: string, table: string, wait?: number) {
  return callWithKey(via, secretOf(name), acquireTableLockMutation, {
    table,
    ...(wait ? { wait } : {}),
  });
}

async function release(via: ApiProcess, name: string, grant: LockGrant) {
  const response = await callWithKey(via, secretOf(name), releaseTableLockMutation, {
    table: grant.table,
    token: grant.token,
  });
  expect(response.errors, `${name} releasing ${grant.table}`).toBeUndefined();
}

/**
 * Sends a waiting acquisition and returns once its `queued` event shows it is in line, with its
 * answer still to come (in an object: an async function would wait for a promise it returns).
 */
async function joinLine(via: ApiProcess, name: string, table: string) {
  const before = changes.received.length;
  const answer = acquire(via, name, table, 120);
  await changes.waitFor(
    (change) =>
      change.action === 'queued' &&
      change.editor === keyName(name) &&
      changes.received.indexOf(change) >= before,
    10_000,
  );
  return { answer };
}

describe('the lock queue across two API processes', () => {
  it(`serves ${WAITERS} waiters in arrival order while the table changes hands every ${HOLD_MS} ms`, async () => {
    const holder = granted(await acquire(a, 'holder', 'products'), 'acquireTableLock', 'holder');
    const arrivals: string[] = [];
    const served: string[] = [];
    const tokens: bigint[] = [];
    const waiting: Promise<void>[] = [];
    for (let i = 0; i < WAITERS; i++) {
      const name = `waiter-${i}`;
      const via = i % 2 === 0 ? a : b;
      const { answer } = await joinLine(via, name, 'products');
      arrivals.push(keyName(name));
      waiting.push(
        (async () => {
          const grant = granted(await answer, 'acquireTableLock', name);
          served.push(grant.editor);
          tokens.push(BigInt(grant.token));
          // The holder works a while, then hands the table on (through the other process).
          await new Promise((resolve) => setTimeout(resolve, HOLD_MS));
          await release(via === a ? b : a, name, grant);
        })(),
      );
    }
    await release(b, 'holder', holder);
    await Promise.all(waiting);

    expect(served).toEqual(arrivals);
    expect(tokens).toEqual([...tokens].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)));
    expect(await database.prisma.lockWaiter.count()).toBe(0);
  }, 120_000);

  it('lets no later waiter overtake one whose FK targets are busy', async () => {
    // categories is being edited, so products (which references it) cannot start yet.
    const categories = granted(await acquire(a, 'holder', 'categories'), 'acquireTableLock', 'c');
    const { answer: first } = await joinLine(a, 'waiter-0', 'products');
    // suppliers is free, but products will lock it: it must wait behind products' waiter.
    const { answer: second } = await joinLine(b, 'waiter-1', 'suppliers');
    const { answer: third } = await joinLine(a, 'waiter-2', 'categories');
    let registry = await readRegistry(database.prisma);
    expect(registry.get('suppliers')?.status).toBe('normal');

    await release(b, 'holder', categories);
    const products = granted(await first, 'acquireTableLock', 'waiter-0');
    registry = await readRegistry(database.prisma);
    expect(registry.get('products')).toMatchObject({ status: 'editing', editor: 'key:waiter-0' });
    expect(registry.get('suppliers')?.lockedBy).toEqual(['products']);
    expect(registry.get('categories')?.lockedBy).toEqual(['products']);

    await release(a, 'waiter-0', products);
    const [suppliers, categoriesAgain] = [
      granted(await second, 'acquireTableLock', 'waiter-1'),
      granted(await third, 'acquireTableLock', 'waiter-2'),
    ];
    expect(BigInt(suppliers.token)).toBeGreaterThan(BigInt(products.token));
    expect(BigInt(categoriesAgain.token)).toBeGreaterThan(BigInt(products.token));
    await release(b, 'waiter-1', suppliers);
    await release(b, 'waiter-2', categoriesAgain);
  }, 60_000);
});
