import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { acquireTableLock, grantedOrConflict, releaseTableLock } from '@tablelock/lock';
import { createWebhook } from '@tablelock/outbox';
import { createTestDatabase, poll, type TestDatabase } from '@tablelock/test-support';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './support/testApi';

/**
 * As long as in the security review (an endpoint answering after 8 s): a sender that waits
 * for the slow endpoint gives up on it only then, and the test sees which came first.
 */
const TIMEOUT_MS = 8_000;

let database: TestDatabase;
let api: TestApi;
const servers: http.Server[] = [];
const receivers: HoldingReceiver[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  api = await startTestApi(database, {
    webhooks: {
      allowedHosts: ['127.0.0.1'],
      timeoutMs: TIMEOUT_MS,
      firstRetryMs: 50,
      // Every delivery here starts from a commit's announcement, none from a timer.
      longestWaitMs: 3_600_000,
    },
  });
});
afterEach(async () => {
  for (const receiver of receivers.splice(0)) receiver.answer();
  await database.prisma.webhook.deleteMany();
});
afterAll(async () => {
  await api.stop();
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.map((server) => new Promise((closed) => server.close(closed))));
  await database.close();
});

/** A receiver that holds each request until the test lets it answer. */
interface HoldingReceiver {
  url: string;
  /** The webhook-ids received, in order. */
  received: string[];
  /** The first request has come. */
  arrived: Promise<void>;
  /** The sender went away from the first request without its answer (it gave up). */
  abandoned: Promise<'abandoned'>;
  /** Lets every held request and every later one be answered 204. */
  answer(): void;
}

async function holdingReceiver(hold: boolean): Promise<HoldingReceiver> {
  let arrive = () => {};
  let abandon = (_: 'abandoned') => {};
  let answer = () => {};
  const answering = hold ? new Promise<void>((resolve) => (answer = resolve)) : Promise.resolve();
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      receiver.received.push(String(request.headers['webhook-id']));
      response.on('close', () => {
        if (!response.writableFinished) abandon('abandoned');
      });
      arrive();
      void answering.then(() => response.writeHead(204).end());
    });
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const receiver: HoldingReceiver = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received: [],
    arrived: new Promise<void>((resolve) => (arrive = resolve)),
    abandoned: new Promise<'abandoned'>((resolve) => (abandon = resolve)),
    answer: () => answer(),
  };
  receivers.push(receiver);
  return receiver;
}

async function lockAndRelease(tableName: string): Promise<void> {
  const grant = grantedOrConflict(
    await acquireTableLock(database.prisma, { tableName, editor: 'alice', leaseSeconds: 60 }),
  );
  await releaseTableLock(database.prisma, {
    tableName,
    editor: 'alice',
    token: grant.fencingToken,
  });
}

async function register(receiver: HoldingReceiver, table: string): Promise<bigint> {
  const { webhook } = await createWebhook(
    database.prisma,
    { url: receiver.url, eventTypes: [], tables: [table], withRows: false },
    'admin',
    ['127.0.0.1'],
  );
  return BigInt(webhook.id);
}

/** Backends sitting in a transaction that holds webhook_stream: a claim kept open. */
async function claimsHeldOpen(): Promise<number> {
  const [row] = await database.prisma.$queryRaw<{ count: number }[]>`
    SELECT count(DISTINCT a.pid)::int AS count
    FROM pg_stat_activity AS a JOIN pg_locks AS l ON l.pid = a.pid
    WHERE a.datname = current_database() AND a.state LIKE 'idle in transaction%'
      AND l.relation = 'tablelock.webhook_stream'::regclass`;
  return row?.count ?? 0;
}

describe('a slow webhook receiver', () => {
  it('delays only its own endpoint: another one gets its messages while it holds its answer', async () => {
    const slow = await holdingReceiver(true);
    const fast = await holdingReceiver(false);
    const slowId = await register(slow, 'suppliers');
    const fastId = await register(fast, 'categories');

    await lockAndRelease('suppliers');
    await slow.arrived;
    // The fast endpoint's events come while the slow one is answering.
    await lockAndRelease('categories');
    const first = await Promise.race([fast.arrived.then(() => 'fast delivered'), slow.abandoned]);
    expect(first).toBe('fast delivered');

    await poll('the fast endpoint’s deliveries logged', 10_000, async () => {
      const logged = await database.prisma.webhookDelivery.count({
        where: { webhookId: fastId, delivered: true },
      });
      return logged >= 2 ? true : undefined;
    });
    expect(fast.received).toHaveLength(2);
    expect(slow.received).toHaveLength(1);

    slow.answer();
    await poll('the slow endpoint’s deliveries logged', 10_000, async () => {
      const logged = await database.prisma.webhookDelivery.count({
        where: { webhookId: slowId, delivered: true },
      });
      return logged >= 2 ? true : undefined;
    });
    expect(new Set(slow.received).size).toBe(2);
  });

  it('holds no database connection while it waits for the answer', async () => {
    const slow = await holdingReceiver(true);
    const slowId = await register(slow, 'currencies');
    await lockAndRelease('currencies');
    await slow.arrived;
    expect(await claimsHeldOpen()).toBe(0);
    slow.answer();
    await poll('the slow endpoint’s deliveries logged', 10_000, async () => {
      const logged = await database.prisma.webhookDelivery.count({
        where: { webhookId: slowId, delivered: true },
      });
      return logged >= 2 ? true : undefined;
    });
  });
});
