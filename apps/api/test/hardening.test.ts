import { createTestDatabase, resetLockRegistry, type TestDatabase } from '@tablelock/test-support';
import { getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readRegistry } from './support/registry';
import { startTestApi, type TestApi, type TestClient } from './support/testApi';

let database: TestDatabase;
let api: TestApi;
let alice: TestClient;

beforeAll(async () => {
  database = await createTestDatabase();
  api = await startTestApi(database);
  alice = await api.loginAs('alice');
});
afterAll(async () => {
  await api.stop();
  await database.close();
});
beforeEach(() => resetLockRegistry(database.prisma));

const ACQUIRE_CURRENCIES = `mutation {
  UpdateTableStatusWithLock(input: { table_name: "currencies", current_status: normal, target_status: editing }) {
    lock_result
  }
}`;

/** A raw POST to /graphql as alice, so that the content type and body are ours to choose. */
async function post(body: string, contentType: string) {
  const response = await fetch(`${api.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': contentType, ...alice.headers },
    body,
  });
  return { status: response.status, text: await response.text() };
}

const postJson = (query: string) => post(JSON.stringify({ query }), 'application/json');

/** Whatever went wrong, the client learns nothing about the server's code. */
function expectNoStackTrace(text: string) {
  expect(text).not.toMatch(/stacktrace/i);
  expect(text).not.toMatch(/\bat \//);
  expect(text).not.toMatch(/node_modules|\.[cm]?[jt]s:\d+/);
}

const firstError = (text: string) =>
  (JSON.parse(text) as { errors?: { message: string; extensions?: { code?: string } }[] })
    .errors?.[0];

describe('CSRF', () => {
  // A browser sends these content types from another origin without a preflight. SameSite=Lax
  // keeps the cookie off POSTs from other sites, but a sibling subdomain is the same site.
  it.each(['text/plain', 'application/x-www-form-urlencoded'])(
    'a %s POST with a valid session cookie is refused and changes nothing',
    async (contentType) => {
      const before = await readRegistry(database.prisma);
      const response = await post(JSON.stringify({ query: ACQUIRE_CURRENCIES }), contentType);
      expect(response.status).toBe(400);
      expect(firstError(response.text)?.message).toMatch(/Cross-Site Request Forgery/);
      expect(await readRegistry(database.prisma)).toEqual(before);
    },
  );

  it('the same mutation as application/json does go through (the refusal above is not an accident)', async () => {
    const response = await postJson(ACQUIRE_CURRENCIES);
    expect(response.status).toBe(200);
    expect(JSON.parse(response.text)).toEqual({
      data: { UpdateTableStatusWithLock: { lock_result: true } },
    });
  });
});

describe('query limits (graphql-armor)', () => {
  it('a deeply nested query is rejected before it runs', async () => {
    // 30 levels: deeper than any limit that still admits the introspection query below.
    let selection = 'name';
    for (let level = 0; level < 30; level++) selection = `ofType { ${selection} }`;
    const response = await postJson(`{ __schema { types { fields { type { ${selection} } } } } }`);
    expect(response.status).toBe(400);
    expect(firstError(response.text)).toMatchObject({
      message: expect.stringMatching(/depth limit/),
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
    expectNoStackTrace(response.text);
  });

  it('the standard introspection query succeeds for a logged-in caller (code generators send it)', async () => {
    const response = await alice.graphql<{ __schema: { queryType: { name: string } } }>(
      getIntrospectionQuery(),
    );
    expect(response.errors).toBeUndefined();
    expect(response.data?.__schema.queryType.name).toBe('Query');
  });

  it('more aliases than allowed are rejected', async () => {
    const aliases = Array.from({ length: 21 }, (_, i) => `t${i}: tables { name }`).join(' ');
    const response = await postJson(`{ ${aliases} }`);
    expect(response.status).toBe(400);
    expect(firstError(response.text)).toMatchObject({
      message: expect.stringMatching(/Aliases limit/),
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
    expectNoStackTrace(response.text);
  });

  it('a flood of tokens is rejected with HTTP 400 (aliased __typename is exempt from the alias limit, not from this)', async () => {
    const aliases = Array.from({ length: 700 }, (_, i) => `a${i}: __typename`).join(' ');
    const response = await postJson(`{ ${aliases} }`);
    expect(response.status).toBe(400);
    expect(firstError(response.text)).toMatchObject({
      message: expect.stringMatching(/2000 tokens/),
      extensions: { code: 'GRAPHQL_PARSE_FAILED' },
    });
    expectNoStackTrace(response.text);
  });
});

describe('request bodies', () => {
  const oversized = JSON.stringify({ query: `{ __typename } # ${'x'.repeat(110_000)}` });

  it('a body over 100 kB is refused with HTTP 413', async () => {
    const response = await post(oversized, 'application/json');
    expect(response.status).toBe(413);
  });

  it.each([
    ['larger than 100 kB', oversized],
    ['of malformed JSON', '{"query": '],
  ])('the refusal of a body %s carries no stack trace', async (_label, body) => {
    const response = await post(body, 'application/json');
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expectNoStackTrace(response.text);
  });
});
