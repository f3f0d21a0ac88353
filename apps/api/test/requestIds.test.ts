import { createTestDatabase, type TestDatabase } from '@tablelock/test-support';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi, type TestClient } from './support/testApi';

let database: TestDatabase;
let api: TestApi;
let carol: TestClient;
const logLines: { level: number; msg: string; requestId?: string; err?: { stack?: string } }[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => logLines.push(JSON.parse(line)) },
  );
  api = await startTestApi(database, { logger });
  carol = await api.loginAs('carol');
});
afterAll(async () => {
  await api.stop();
  await database.close();
});

async function post(query: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${api.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...carol.headers, ...headers },
    body: JSON.stringify({ query }),
  });
  const body = (await response.json()) as {
    errors?: { message: string; extensions: { code: string; requestId?: string } }[];
  };
  return { id: response.headers.get('x-request-id'), errors: body.errors ?? [] };
}

describe('request ids', () => {
  it('a coded error carries the id the response header names', async () => {
    const { id, errors } = await post('mutation { acquireTableLock(table: "regions") { token } }');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(errors[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', requestId: id });
  });

  it("keeps a proxy's plain X-Request-Id and replaces one that is not plain", async () => {
    expect((await post('{ me { name } }', { 'x-request-id': 'edge-7f3a.42' })).id).toBe(
      'edge-7f3a.42',
    );
    expect((await post('{ me { name } }', { 'x-request-id': 'a\tb' })).id).toMatch(
      /^[0-9a-f-]{36}$/,
    );
  });

  it('an unexpected failure is opaque to the client and logged once, with its stack, under the same id', async () => {
    await database.prisma.$executeRawUnsafe('DROP TABLE tablelock.lock_event CASCADE');
    const { id, errors } = await post('{ lockEvents { total } }');
    expect(errors).toEqual([
      {
        message: 'Internal server error',
        path: ['lockEvents'],
        extensions: { code: 'INTERNAL_SERVER_ERROR', requestId: id },
      },
    ]);
    const logged = logLines.filter((line) => line.requestId === id && line.level >= 50);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      msg: 'resolver failed',
      err: { stack: expect.stringContaining('lock_event') },
    });
  });
});
