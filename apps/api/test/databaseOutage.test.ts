import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  applyMigrations,
  createPrismaClient,
  type RunningPostgres,
  startEmbeddedPostgres,
} from '@tablelock/db';
import { freePort, type TestDatabase } from '@tablelock/test-support';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi, type TestClient } from './support/testApi';

// A Postgres of this file's own, which the test stops and starts again (the shared test server
// stays up for the other files).
let dataDir: string;
let port: number;
let postgres: RunningPostgres | undefined;
let database: TestDatabase;
let api: TestApi;
let carol: TestClient;
const logLines: { level: number; msg: string }[] = [];

const startPostgres = async () => {
  // Not ephemeral: an ephemeral cluster is deleted when it stops, and this one comes back.
  postgres = await startEmbeddedPostgres({ dataDir, port });
  return postgres;
};

beforeAll(async () => {
  const root = await mkdtemp(join(tmpdir(), 'tablelock-outage-'));
  // As root, Postgres runs as its own user, who must be able to enter the directory.
  await chmod(root, 0o755);
  dataDir = join(root, 'postgres');
  port = await freePort();
  const { adminUrl } = await startPostgres();
  await applyMigrations(adminUrl);
  const prisma = createPrismaClient(adminUrl);
  database = { url: adminUrl, adminUrl, prisma, close: () => prisma.$disconnect() };
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => logLines.push(JSON.parse(line)) },
  );
  api = await startTestApi(database, { logger });
  carol = await api.withApiKey('outage-viewer', 'viewer');
}, 120_000);
afterAll(async () => {
  await api?.stop();
  await database?.close();
  await postgres?.stop();
  await rm(join(dataDir, '..'), { recursive: true, force: true });
});

const TABLES = '{ tables { name } }';

async function post() {
  const response = await fetch(`${api.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...carol.headers },
    body: JSON.stringify({ query: TABLES }),
  });
  return {
    status: response.status,
    body: (await response.json()) as {
      data?: unknown;
      errors?: { message: string; extensions: { code: string; retryAfterSeconds?: number } }[];
    },
  };
}

describe('a database outage', () => {
  it('answers coded 503s while the database is down, logs it once, and serves again once it is back', async () => {
    expect((await post()).status).toBe(200);

    await postgres?.stop();
    postgres = undefined;
    const during = await Promise.all([post(), post(), post()]);
    for (const response of during) {
      expect(response.status).toBe(503);
      expect(response.body.errors?.[0]?.extensions).toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        retryAfterSeconds: expect.any(Number),
      });
    }
    expect(logLines.filter((line) => line.level >= 50)).toEqual([]);

    await startPostgres();
    const deadline = Date.now() + 20_000;
    let after = await post();
    while (after.status !== 200 && Date.now() < deadline) after = await post();
    expect(after).toMatchObject({ status: 200, body: { data: { tables: [] } } });

    const messages = logLines.map((line) => line.msg);
    expect(messages.filter((msg) => msg === 'database unreachable')).toHaveLength(1);
    await expect.poll(() => logLines.filter((line) => line.msg === 'database back').length).toBe(1);
    expect(logLines.filter((line) => line.level >= 50)).toEqual([]);
  });
});
