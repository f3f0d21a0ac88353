import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { acquireTableLock, grantedOrConflict, syncTableRegistry } from '@tablelock/lock';
import { syncWriteGuards } from '@tablelock/master-data';
import { createTestDatabase, MASTER_SCHEMA, type TestDatabase } from '@tablelock/test-support';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createWebhook,
  type DeliverySettings,
  deliverNextWebhook,
  ROW_BATCH,
  readChangeFeed,
  webhooksDue,
} from '../src';

// Twenty batches: enough to show paging and order. The bulk write's speed at 100,000 rows and
// more is `pnpm bench`'s to measure; here it only made the file starve the others of CPU.
const ROWS = 20_000;
const TABLE = 'bulk_items';

interface Batch {
  id: string;
  type: string;
  data: { inserted?: number; rows?: { key: { id: string } }[]; lastBatch?: boolean };
}

let database: TestDatabase;
let server: http.Server;
let url: string;
let secret = '';
const received: Batch[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  const { prisma } = database;
  await prisma.$executeRawUnsafe(
    `CREATE TABLE ${MASTER_SCHEMA}.${TABLE} (id integer PRIMARY KEY, name text NOT NULL)`,
  );
  await syncTableRegistry(prisma, MASTER_SCHEMA);
  await syncWriteGuards(prisma, MASTER_SCHEMA, 'RECORD');
  server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      const payload = new Webhook(secret).verify(body, request.headers as Record<string, string>);
      received.push({
        id: String(request.headers['webhook-id']),
        ...(payload as Omit<Batch, 'id'>),
      });
      response.writeHead(204).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
});
afterAll(async () => {
  server.close();
  await database.close();
});

const SETTINGS: DeliverySettings = {
  allowedHosts: ['127.0.0.1'],
  timeoutMs: 10_000,
  maxResponseBytes: 65_536,
  firstRetryMs: 50,
  giveUpSeconds: 3600,
  rowBatch: ROW_BATCH,
  longestWaitMs: 5_000,
};

describe('a bulk write', () => {
  it(`is one event, and its ${ROWS} rows reach an endpoint that asks for them in batches of ${ROW_BATCH}, all in order`, async () => {
    const { prisma } = database;
    ({ secret } = await createWebhook(
      prisma,
      { url, eventTypes: ['locked_write'], tables: [TABLE], withRows: true },
      'admin',
      ['127.0.0.1'],
    ));
    const grant = grantedOrConflict(
      await acquireTableLock(prisma, { tableName: TABLE, editor: 'key:etl', leaseSeconds: 600 }),
    );
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.query('BEGIN');
    await client.query('SELECT tablelock.use_lock($1, $2)', [TABLE, grant.fencingToken]);
    await client.query(
      `INSERT INTO ${MASTER_SCHEMA}.${TABLE} SELECT i, 'item ' || i FROM generate_series(1, ${ROWS}) AS i`,
    );
    await client.query('COMMIT');
    await client.end();

    const feed = await readChangeFeed(prisma, { first: 100, tables: [TABLE] });
    expect(feed.events.map((event) => [event.type, event.data?.inserted])).toEqual([
      ['acquire', undefined],
      ['locked_write', ROWS],
    ]);

    expect((await webhooksDue(prisma)).waiting).toMatchObject([{ dueInMs: 0 }]);
    while (await deliverNextWebhook(prisma, SETTINGS)) {}
    expect(received.every((batch) => batch.type === 'locked_write')).toBe(true);
    expect(new Set(received.map((batch) => batch.id)).size).toBe(received.length);
    expect(received.every((batch) => (batch.data.rows?.length ?? 0) <= ROW_BATCH)).toBe(true);
    expect(received.map((batch) => batch.data.lastBatch)).toEqual(
      received.map((_, index) => index === received.length - 1),
    );
    const keys = received
      .flatMap((batch) => batch.data.rows ?? [])
      .map((row) => Number(row.key.id));
    expect(keys).toHaveLength(ROWS);
    expect(keys.every((key, index) => key === index + 1)).toBe(true);
  });
});
