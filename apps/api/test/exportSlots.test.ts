import { EventEmitter, once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { createTestDatabase, poll, type TestDatabase } from '@tablelock/test-support';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi, type TestClient } from './support/testApi';

let database: TestDatabase;
const apis: TestApi[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  // Rows of 4 kB at the start of the export, so that its first few batches fill the socket
  // buffers (about 4 MB on Linux's loopback): a reader that takes nothing is then seen to stall
  // after those few, however slowly a busy machine writes them. With the demo's rows of 100
  // bytes it took 40 batches an export, on a loaded 2-core machine well over 10 s.
  await database.prisma.$executeRaw`
    UPDATE master.products SET description = repeat('wide ', 800) WHERE id <= 3000`;
});
afterAll(async () => {
  await Promise.all(apis.map((api) => api.stop()));
  await database.close();
});

/**
 * An API with these bounds, the messages it logs, and `untilLogged`: resolves once a message
 * has been logged `times` times.
 */
async function startApi(exportLimits: { stallMs?: number; maxMs?: number } = {}) {
  const logged: string[] = [];
  const messages = new EventEmitter();
  const logStream = new Writable({
    write(line, _encoding, done) {
      logged.push(JSON.parse(String(line)).msg);
      messages.emit('logged');
      done();
    },
  });
  const api = await startTestApi(database, {
    exportLimits,
    logger: pino({ level: 'warn' }, logStream),
  });
  apis.push(api);
  const untilLogged = (message: string, times: number) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (logged.filter((msg) => msg === message).length < times) return;
        messages.off('logged', check);
        resolve();
      };
      messages.on('logged', check);
      check();
    });
  return { api, logged, untilLogged };
}

/**
 * `GET /export/products.csv` over a socket of our own (more than the socket buffers hold), read
 * as `reader` says once the first bytes are in: the export is running then.
 */
async function download(api: TestApi, client: TestClient, reader: (socket: Socket) => void) {
  const { hostname, port } = new URL(api.url);
  const socket = connect({ host: hostname, port: Number(port) });
  const headers = Object.entries(client.headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.write(`GET /export/products.csv HTTP/1.1\r\nHost: ${hostname}:${port}\r\n${headers}\r\n`);
  const [first] = (await once(socket, 'data')) as [Buffer];
  expect(first.toString('latin1')).toMatch(/^HTTP\/1\.1 200/);
  reader(socket);
  return socket;
}

/** A reader that takes nothing more. */
const stall = (socket: Socket) => socket.pause();

/** A reader that keeps reading, slowly: a chunk (at most 64 KiB) each half second. */
const trickle = (socket: Socket) => {
  socket.on('data', () => {
    socket.pause();
    setTimeout(() => socket.resume(), 500).unref();
  });
};

async function exportStatus(api: TestApi, client: TestClient) {
  const response = await fetch(`${api.url}/export/warehouses.csv`, { headers: client.headers });
  const body = await response.text();
  const code = response.ok ? undefined : JSON.parse(body).errors[0].extensions.code;
  return { status: response.status, code };
}

/** Export transactions still open (a cursor being read) in the test database. */
async function openExportTransactions() {
  const [row] = await database.prisma.$queryRaw<{ count: number }[]>`
    SELECT count(*)::int AS count FROM pg_stat_activity
    WHERE datname = current_database() AND state LIKE 'idle in transaction%'
      AND query LIKE '%row_export%'`;
  return row?.count ?? 0;
}

const served = (api: TestApi, client: TestClient) =>
  poll(`${client.name} served an export`, 10_000, async () =>
    (await exportStatus(api, client)).status === 200 ? true : undefined,
  );

const noExportTransactions = () =>
  poll('the export transactions ended', 10_000, async () =>
    (await openExportTransactions()) === 0 ? true : undefined,
  );

describe('export slots', () => {
  it('one caller holds at most one export at a time: a reader who stops cannot take both', async () => {
    const { api } = await startApi();
    const [carol, bob] = await Promise.all([api.loginAs('carol'), api.loginAs('bob')]);
    const first = await download(api, carol, stall);
    try {
      expect(await exportStatus(api, carol)).toEqual({ status: 429, code: 'TOO_MANY_REQUESTS' });
      expect((await exportStatus(api, bob)).status).toBe(200);
    } finally {
      first.destroy();
    }
    await served(api, carol);
  });

  it('a reader that takes nothing for the stall bound is cut off; its slot and transaction end', async () => {
    const { api, logged, untilLogged } = await startApi({ stallMs: 200 });
    const [carol, bob] = await Promise.all([api.loginAs('carol'), api.loginAs('bob')]);
    const key = await api.withApiKey('stalled-reader', 'viewer');
    const stalled = [await download(api, carol, stall), await download(api, key, stall)];
    try {
      // Logged once the export's transaction has ended (its rollback); its slot is given back
      // in the same turn of the event loop, before the server reads another request.
      await untilLogged('export cut off: its reader stalled', 2);
      expect((await exportStatus(api, bob)).status).toBe(200);
      expect(await openExportTransactions()).toBe(0);
      expect(logged.filter((msg) => msg === 'export cut off: its reader stalled')).toHaveLength(2);
    } finally {
      for (const socket of stalled) socket.destroy();
    }
  });

  it('a reader that keeps reading, too slowly, is cut off at the total bound', async () => {
    const { api, logged, untilLogged } = await startApi({ maxMs: 1000 });
    const [carol, bob] = await Promise.all([api.loginAs('carol'), api.loginAs('bob')]);
    const key = await api.withApiKey('slow-reader', 'viewer');
    const slow = [await download(api, carol, trickle), await download(api, key, trickle)];
    try {
      // Logged when the server's own timer cuts the download off; its transaction and slot
      // end once the export has seen its connection close.
      await untilLogged('export cut off: too long', 2);
      await served(api, bob);
      await noExportTransactions();
      expect(logged.filter((msg) => msg === 'export cut off: too long')).toHaveLength(2);
    } finally {
      for (const socket of slow) socket.destroy();
    }
  });
});
