import { once } from 'node:events';
import { type AddressInfo, createServer, type Server, Socket } from 'node:net';
import { createTestDatabase, type TestDatabase } from '@tablelock/test-support';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrismaClient, type PrismaClient } from '../src';

let database: TestDatabase;
let admin: pg.Client;
const clients: PrismaClient[] = [];
const relays: Server[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.$disconnect()));
  for (const relay of relays) relay.close();
  await admin.end();
  await database.close();
});

/**
 * A TCP relay to the test database whose `ended`-th session ends right after its handshake, with
 * the server's last words in one read: the relay holds the server's ReadyForQuery, ends the
 * backend (pg_terminate_backend, by the pid its BackendKeyData named) and passes both on
 * together. So does a primary that dies as a connection to it opens, on a busy machine. Other
 * sessions pass through untouched. Answers a URL to the relay that asks for the primary, so the
 * primary-only client connects: its first session asks the server what it is (the locator's
 * probe), the next is the pool's connection.
 */
async function relayEndingSession(ended: number): Promise<string> {
  const target = new URL(database.url);
  let sessions = 0;
  const relay = createServer((downstream) => {
    const upstream = new Socket();
    upstream.connect(Number(target.port), target.hostname);
    downstream.pipe(upstream);
    downstream.on('error', () => upstream.destroy());
    upstream.on('error', () => downstream.destroy());
    if (++sessions !== ended) {
      upstream.pipe(downstream);
      return;
    }
    let pending = Buffer.alloc(0);
    let backendPid: number | undefined;
    let held: Buffer | undefined;
    upstream.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      // Messages: a type byte, then a length that counts itself and the body.
      while (pending.length >= 5 && pending.length >= 1 + pending.readInt32BE(1)) {
        const message = pending.subarray(0, 1 + pending.readInt32BE(1));
        pending = pending.subarray(message.length);
        const type = String.fromCharCode(message[0] as number);
        if (type === 'K') backendPid = message.readInt32BE(5);
        if (type === 'Z' && !held) {
          held = message;
          void admin.query('SELECT pg_terminate_backend($1)', [backendPid]);
        } else if (held && type === 'E') {
          downstream.end(Buffer.concat([held, message]));
        } else {
          downstream.write(message);
        }
      }
    });
    upstream.on('end', () => downstream.end());
  });
  relays.push(relay);
  relay.listen(0, '127.0.0.1');
  await once(relay, 'listening');
  const url = new URL(database.url);
  url.port = String((relay.address() as AddressInfo).port);
  url.searchParams.set('target_session_attrs', 'read-write');
  return url.toString();
}

describe('a server that ends a session as it opens, as a dying primary does', () => {
  it('fails the locator’s probe, not the process: it asks again and the query is answered', async () => {
    const prisma = createPrismaClient(await relayEndingSession(1), { poolSize: 1 });
    clients.push(prisma);
    expect(await prisma.$queryRaw`SELECT 1 AS one`).toEqual([{ one: 1 }]);
  });

  it('fails the query whose connection it was, not the process; the next query connects again', async () => {
    const prisma = createPrismaClient(await relayEndingSession(2), { poolSize: 1 });
    clients.push(prisma);
    await expect(prisma.$queryRaw`SELECT 1`).rejects.toThrow();
    expect(await prisma.$queryRaw`SELECT 1 AS one`).toEqual([{ one: 1 }]);
  });
});
