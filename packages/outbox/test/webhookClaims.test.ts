import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { acquireTableLock, grantedOrConflict, releaseTableLock } from '@tablelock/lock';
import { createTestDatabase, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhook, type DeliverySettings, deliverNextWebhook, webhooksDue } from '../src';

const TABLE = 'categories';
const SETTINGS: DeliverySettings = {
  allowedHosts: ['127.0.0.1'],
  // Longer than the test: the held answer ends when the test says, never by the time limit.
  timeoutMs: 60_000,
  maxResponseBytes: 65_536,
  firstRetryMs: 50,
  giveUpSeconds: 3600,
  rowBatch: 1000,
  longestWaitMs: 5_000,
};

let database: TestDatabase;
let server: http.Server;
let url = '';
/** The webhook-ids received, in order. */
const received: string[] = [];
let firstArrived: Promise<void>;
let answerFirst = (_status: number) => {};

beforeAll(async () => {
  database = await createTestDatabase();
  let arrive = () => {};
  firstArrived = new Promise<void>((resolve) => (arrive = resolve));
  const firstAnswer = new Promise<number>((resolve) => (answerFirst = resolve));
  server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received.push(String(request.headers['webhook-id']));
      if (received.length > 1) {
        response.writeHead(204).end();
        return;
      }
      arrive();
      void firstAnswer.then((status) => response.writeHead(status).end());
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
});
afterAll(async () => {
  answerFirst(204);
  server.closeAllConnections();
  server.close();
  await database.close();
});

async function lockAndRelease(): Promise<void> {
  const { prisma } = database;
  const grant = grantedOrConflict(
    await acquireTableLock(prisma, { tableName: TABLE, editor: 'alice', leaseSeconds: 60 }),
  );
  await releaseTableLock(prisma, { tableName: TABLE, editor: 'alice', token: grant.fencingToken });
}

describe('a claim of an endpoint’s table', () => {
  it('is not taken while its lease holds; once it ran out, the old holder’s late outcome changes nothing', async () => {
    const { prisma } = database;
    await createWebhook(
      prisma,
      { url, eventTypes: [], tables: [TABLE], withRows: false },
      'admin',
      ['127.0.0.1'],
    );
    await lockAndRelease();
    // Opens the endpoint's place in the table, after the events before it.
    await webhooksDue(prisma);

    const holding = deliverNextWebhook(prisma, SETTINGS);
    const first = await Promise.race([
      firstArrived.then(() => 'arrived'),
      holding.then(() => 'delivery ended'),
    ]);
    expect(first).toBe('arrived');
    // The claim is committed, its answer not in: no other delivery takes the stream.
    expect(await deliverNextWebhook(prisma, SETTINGS)).toBeNull();
    expect(received).toHaveLength(1);

    // As if the holder's process had died: its lease runs out, and another delivery takes over.
    await prisma.$executeRaw`UPDATE tablelock.webhook_stream SET claimed_until = now()`;
    const takenOver = await deliverNextWebhook(prisma, SETTINGS);
    expect(takenOver?.outcome.delivered).toBe(true);
    expect(received).toHaveLength(3);
    const [after] = await prisma.webhookStream.findMany();

    // The old holder's answer comes last, a failure: it neither moves the stream back nor
    // backs it off.
    answerFirst(500);
    const late = await holding;
    expect(late?.outcome).toMatchObject({ delivered: false, status: 500 });
    expect(late?.disabled).toBe(false);
    const [stream] = await prisma.webhookStream.findMany();
    expect(stream).toEqual(after);
    expect(stream).toMatchObject({ attempts: 0, failingSince: null, claim: null });
    expect((await webhooksDue(prisma)).waiting).toEqual([]);
    // Every attempt that left is logged, the late one too.
    const log = await prisma.webhookDelivery.findMany({ orderBy: { id: 'asc' } });
    expect(log.map(({ messageId, delivered }) => ({ messageId, delivered }))).toEqual([
      { messageId: received[1], delivered: true },
      { messageId: received[2], delivered: true },
      { messageId: received[0], delivered: false },
    ]);
  });
});
