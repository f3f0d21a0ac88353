import { request as httpRequest } from 'node:http';
import {
  createTestDatabase,
  poll,
  resetLockRegistry,
  type TestDatabase,
} from '@tablelock/test-support';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { acquireTableLockAs } from './support/lockOperations';
import { startTestApi, type TestApi, type TestClient } from './support/testApi';

let database: TestDatabase;
let api: TestApi;
let alice: TestClient;
let token: string;
// The lock a dry run of alice's on categories takes in its transaction, before it classifies.
let blocker: pg.Client;

const FILE = Buffer.from('id,name,parent_id,sort_order\n9001,Cancelled import,,1\n');

beforeAll(async () => {
  database = await createTestDatabase();
  api = await startTestApi(database);
  alice = await api.loginAs('alice');
  blocker = new pg.Client({ connectionString: database.url });
  await blocker.connect();
});
afterAll(async () => {
  await blocker.end();
  await api.stop();
  await database.close();
});
beforeEach(async () => {
  await resetLockRegistry(database.prisma);
  token = (await acquireTableLockAs(alice, 'categories')).token;
});

/** Sessions of this database waiting for an advisory lock: the dry run, held up by the test. */
async function waitingDryRuns(): Promise<number> {
  const { rows } = await blocker.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM pg_locks
      WHERE locktype = 'advisory' AND NOT granted
        AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
  );
  return rows[0]?.count ?? 0;
}

async function keptDryRuns(): Promise<number> {
  const { rows } = await blocker.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM tablelock.import_dry_run
      WHERE editor = 'alice' AND table_name = 'categories'`,
  );
  return rows[0]?.count ?? 0;
}

async function stagedRows(): Promise<number> {
  const { rows } = await blocker.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM tablelock.import_staging',
  );
  return rows[0]?.count ?? 0;
}

/** Sends the whole file: the server's part (the rows checked) begins as it arrives. */
function sendDryRun() {
  const url = new URL(
    `${api.url}/import/categories?${new URLSearchParams({ token, dryRun: '1' })}`,
  );
  const upload = httpRequest(url, {
    method: 'POST',
    headers: {
      ...alice.headers,
      'content-type': 'text/csv',
      'content-length': String(FILE.length),
    },
  });
  upload.on('error', () => {});
  upload.end(FILE);
  return upload;
}

it('a dry run whose client goes away while its rows are checked stops at once and keeps nothing', async () => {
  const lockKey = `hashtextextended('import:alice:categories', 0)`;
  await blocker.query(`SELECT pg_advisory_lock(${lockKey})`);
  try {
    const upload = sendDryRun();
    await poll('the dry run checking (held up by the test)', 10_000, async () =>
      (await waitingDryRuns()) > 0 ? true : undefined,
    );
    expect(await stagedRows()).toBeGreaterThan(0);
    upload.destroy();
    // Its statement is cancelled in the database: the wait ends while the lock is still held.
    await poll('the dry run stopped', 10_000, async () =>
      (await waitingDryRuns()) === 0 ? true : undefined,
    );
  } finally {
    await blocker.query(`SELECT pg_advisory_unlock(${lockKey})`);
  }
  // Its staged rows go as it ends: once they are gone, it has ended.
  await poll('the staged rows removed', 10_000, async () =>
    (await stagedRows()) === 0 ? true : undefined,
  );
  expect(await keptDryRuns()).toBe(0);
});

it('a dry run answered before its client goes away is kept', async () => {
  const response = await fetch(
    `${api.url}/import/categories?${new URLSearchParams({ token, dryRun: '1' })}`,
    {
      method: 'POST',
      headers: { ...alice.headers, 'content-type': 'text/csv', connection: 'close' },
      body: FILE,
    },
  );
  expect(response.status).toBe(200);
  const { report } = (await response.json()) as { report: { counts: { create: number } } };
  expect(report.counts.create).toBe(1);
  expect(await keptDryRuns()).toBe(1);
});
