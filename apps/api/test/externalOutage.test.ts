import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  applyMigrations,
  createPrismaClient,
  loadDemoData,
  type PrismaClient,
  type RunningPostgres,
  startEmbeddedPostgres,
} from '@tablelock/db';
import { createApiKey } from '@tablelock/identity';
import { syncTableRegistry } from '@tablelock/lock';
import {
  type ApiProcess,
  freePort,
  MASTER_SCHEMA,
  startApiProcess,
  stopApiProcess,
  TEST_AUDIT,
  twoPorts,
} from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from './support/embeddedApiProcess';
import { isProbe, type LiveSocket, openLiveSocket, probeUntil } from './support/liveSocket';
import { subscribeLockChanges } from './support/lockChanges';
import { type PostOutcome, postOnOwnConnection } from './support/postOnOwnConnection';

// Two API processes on an external Postgres (DATABASE_URL), which the test stops and starts
// again while both serve live subscriptions.

const RECOVER_WITHIN_MS = 30_000;

let dataDir: string;
let port: number;
let postgres: RunningPostgres | undefined;
let url: string;
let prisma: PrismaClient;
const processes: ApiProcess[] = [];
let a: ApiProcess;
let b: ApiProcess;
let editorKey: string;
let viewerKey: string;

const startPostgres = async () => {
  // Not ephemeral: an ephemeral cluster is deleted when it stops, and this one comes back.
  postgres = await startEmbeddedPostgres({ dataDir, port });
  return postgres;
};

beforeAll(async () => {
  const root = await mkdtemp(join(tmpdir(), 'tablelock-external-outage-'));
  // As root, Postgres runs as its own user, who must be able to enter the directory.
  await chmod(root, 0o755);
  dataDir = join(root, 'postgres');
  port = await freePort();
  url = (await startPostgres()).adminUrl;
  await applyMigrations(url);
  await loadDemoData(url, MASTER_SCHEMA);
  prisma = createPrismaClient(url, { poolSize: 2 });
  await syncTableRegistry(prisma, MASTER_SCHEMA);
  editorKey = (await createApiKey(prisma, { name: 'outage-editor', role: 'editor' }, TEST_AUDIT))
    .secret;
  viewerKey = (await createApiKey(prisma, { name: 'outage-viewer', role: 'viewer' }, TEST_AUDIT))
    .secret;
  const [portA, portB] = await twoPorts();
  [a, b] = await Promise.all([
    startApiProcess('A', url, portA, processes),
    startApiProcess('B', url, portB, processes),
  ]);
}, 120_000);
afterAll(async () => {
  await Promise.all(processes.map(stopApiProcess));
  await prisma?.$disconnect();
  await postgres?.stop();
  await rm(join(dataDir, '..'), { recursive: true, force: true });
});

const call = (api: ApiProcess, key: string, query: string, variables?: Record<string, unknown>) =>
  postOnOwnConnection(api.url, { authorization: `Bearer ${key}` }, query, variables);

const TABLES = '{ tables { name status } }';
const ACQUIRE =
  'mutation($table: String!) { acquireTableLock(table: $table, leaseSeconds: 15) { token } }';
const LOCK_CHANGED = 'subscription { lockChanged { table action actor } }';

const codedUnavailable = expect.objectContaining({
  kind: 'answered',
  status: 503,
  body: {
    errors: [
      expect.objectContaining({
        extensions: expect.objectContaining({
          code: 'SERVICE_UNAVAILABLE',
          retryAfterSeconds: expect.any(Number),
        }),
      }),
    ],
  },
});
const served = (outcome: PostOutcome) =>
  outcome.kind === 'answered' && outcome.status === 200 && outcome.body.errors === undefined;

/** A live client of `api` whose subscription is known to be heard (a probe came back). */
async function watch(api: ApiProcess): Promise<LiveSocket> {
  const socket = openLiveSocket({
    url: api.url,
    connectionParams: { authorization: `Bearer ${viewerKey}` },
  });
  const subscription = socket.subscribe(LOCK_CHANGED);
  await probeUntil(prisma, () => subscription.messages.some(isProbe));
  return socket;
}

describe('an external Postgres stopped and started under two API processes', () => {
  it('both answer coded 503s meanwhile, then serve again, tell every live client to refresh, and sweep lapsed leases', async () => {
    const sockets = await Promise.all([watch(a), watch(b)]);
    const granted = await call(a, editorKey, ACQUIRE, { table: 'warehouses' });
    expect(granted).toMatchObject({ kind: 'answered', status: 200 });

    await postgres?.stop();
    postgres = undefined;
    expect(await Promise.all([call(a, viewerKey, TABLES), call(b, viewerKey, TABLES)])).toEqual([
      codedUnavailable,
      codedUnavailable,
    ]);
    // The lease of the lock runs out during the outage (as if the outage were long).
    await startPostgres();
    await prisma.$executeRaw`
      UPDATE tablelock.table_lock SET lease_expires_at = now() - interval '1 second'
      WHERE table_name = 'warehouses'`;

    // Each process's feed listens again and closes its live connections: "refetch, you missed
    // changes". Clients reconnect and read what is current.
    for (const socket of sockets) {
      expect(await raceTimeout(socket.closed, RECOVER_WITHIN_MS)).toMatchObject({ code: 1012 });
    }
    for (const api of [a, b]) {
      await waitFor(`${api.name} serves again`, RECOVER_WITHIN_MS, async () =>
        served(await call(api, viewerKey, TABLES)),
      );
      await waitFor(`${api.name} ready`, RECOVER_WITHIN_MS, () =>
        fetch(`${api.url}/readyz`).then((response) => response.ok),
      );
    }

    // The sweepers carry on: the lapsed lock is released, as the system.
    await waitFor('the lapsed lock released', 10_000, async () => {
      const [lock] = await prisma.$queryRaw<{ status: string }[]>`
        SELECT status::text FROM tablelock.table_lock WHERE table_name = 'warehouses'`;
      return lock?.status === 'normal';
    });
    const [expiry] = await prisma.$queryRaw<{ actor: string }[]>`
      SELECT actor FROM tablelock.lock_event
      WHERE table_name = 'warehouses' AND action = 'expire' ORDER BY id DESC LIMIT 1`;
    expect(expiry).toEqual({ actor: 'system' });

    // A live client of B, connected anew, hears a change made through A.
    const changes = await subscribeLockChanges({
      url: b.url,
      connectionParams: { authorization: `Bearer ${viewerKey}` },
      prisma,
    });
    try {
      expect(await call(a, editorKey, ACQUIRE, { table: 'regions' })).toMatchObject({
        kind: 'answered',
        status: 200,
      });
      await changes.waitFor(
        (change) => change.table === 'regions' && change.action === 'acquire',
        5_000,
      );
    } finally {
      await changes.close();
      await Promise.all(sockets.map((socket) => socket.dispose()));
    }
    // The outage was no error of the app: no process logged one, nor a stack trace.
    for (const api of [a, b]) expect(api.output.join('')).not.toMatch(/"level":(50|60)|"stack"/);
  });
});

function raceTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`not within ${ms} ms`)), ms)),
  ]);
}
