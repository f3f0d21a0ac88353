import { createUser, DEMO_PASSWORD, updateUser } from '@tablelock/identity';
import { lockInvariantViolations } from '@tablelock/lock';
import {
  createTestDatabase,
  resetLockRegistry,
  TEST_AUDIT,
  type TestDatabase,
} from '@tablelock/test-support';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { graphql } from './generated';
import {
  createApiKeyMutation,
  loginMutation,
  principalQuery,
  revokeApiKeyMutation,
  tableNamesQuery,
  updateUserMutation,
} from './support/identityOperations';
import { acquireByLegacyMutation, callLock } from './support/lockApi';
import { forceReleaseMutation, logoutMutation } from './support/lockOperations';
import { postGraphql, type AnyResponse as Response } from './support/postGraphql';
import { readRegistry } from './support/registry';
import {
  execute,
  type GraphQLResponse,
  startTestApi,
  type TestApi,
  type TestClient,
} from './support/testApi';

let database: TestDatabase;
let api: TestApi;
let admin: TestClient;

beforeAll(async () => {
  database = await createTestDatabase();
  // Throttling is tested below on a server of its own; here it must not get in the way of the
  // deliberate failures.
  api = await startTestApi(database, {
    loginThrottle: { failuresPerUsernameAndIp: 1000, failuresPerIpPerDay: 1000, blockSeconds: 60 },
  });
  admin = await api.loginAs('admin');
});
afterAll(async () => {
  await api.stop();
  await database.close();
});
beforeEach(() => resetLockRegistry(database.prisma));

// Sent with postGraphql where a test needs the raw Set-Cookie headers, or exactly these headers.
const LOGIN = loginMutation.toString();
const PRINCIPAL = principalQuery.toString();
const TABLES = tableNamesQuery.toString();

const logIn = (username: string, password: string, url = api.url) =>
  postGraphql(url, {}, LOGIN, { username, password });

const errorCode = (response: GraphQLResponse<unknown>) => response.errors?.[0]?.extensions?.code;

describe('sessions', () => {
  it('login sets an HttpOnly, SameSite=Lax cookie; logout revokes the session and clears it', async () => {
    const login = await logIn('alice', DEMO_PASSWORD);
    expect(login.body).toEqual({
      data: { login: { kind: 'user', name: 'alice', role: 'editor' } },
    });
    const setCookie = login.setCookies.find((header) => header.startsWith('tablelock_session='));
    expect(setCookie).toMatch(/;\s*HttpOnly/i);
    expect(setCookie).toMatch(/;\s*SameSite=Lax/i);
    expect(setCookie).toMatch(/;\s*Path=\//i);
    const cookie = { cookie: setCookie?.split(';')[0] ?? '' };

    const me = await postGraphql(api.url, cookie, PRINCIPAL);
    expect(me.body.data?.me).toEqual({ kind: 'user', name: 'alice', role: 'editor' });

    const logout = await postGraphql(api.url, cookie, logoutMutation.toString());
    expect(logout.body).toEqual({ data: { logout: true } });
    expect(logout.setCookies).toContainEqual(
      expect.stringMatching(/^tablelock_session=;.*Expires=Thu, 01 Jan 1970/),
    );

    // A client that keeps sending the old cookie (a copy, a stolen one) is turned away.
    const after = await postGraphql(api.url, cookie, TABLES);
    expect(errorCode(after.body)).toBe('UNAUTHENTICATED');
    expect(after.body.errors?.[0]?.message).toMatch(/session has ended/);
    expect(after.body.data ?? null).toBeNull();
  });

  it('an expired session is refused', async () => {
    const carol = await api.loginAs('carol');
    expect((await execute(carol, tableNamesQuery)).errors).toBeUndefined();
    // Only hashes of tokens are stored, so expire every session of the user.
    await database.prisma.$executeRaw`
      UPDATE tablelock.session SET expires_at = now() - interval '1 second'
      WHERE user_id = (SELECT id FROM tablelock."user" WHERE username = 'carol')`;
    const response = await execute(carol, tableNamesQuery);
    expect(errorCode(response)).toBe('UNAUTHENTICATED');
    expect(response.data ?? null).toBeNull();
  });

  it('a disabled user cannot log in, and its open session stops working', async () => {
    await createUser(
      database.prisma,
      { username: 'dora', password: 'dora-password', role: 'editor' },
      TEST_AUDIT,
    );
    const dora = await api.loginAs('dora', 'dora-password');
    expect((await execute(dora, tableNamesQuery)).errors).toBeUndefined();

    const disable = await execute(admin, updateUserMutation, {
      username: 'dora',
      disabled: true,
    });
    expect(disable).toEqual({ data: { updateUser: { username: 'dora', disabled: true } } });

    expect(errorCode(await execute(dora, tableNamesQuery))).toBe('UNAUTHENTICATED');
    const login = await logIn('dora', 'dora-password');
    expect(errorCode(login.body)).toBe('UNAUTHENTICATED');
    expect(login.setCookies).toEqual([]);
  });
});

describe('login failures', () => {
  it('a wrong password and an unknown user get the identical error', async () => {
    const wrongPassword = await logIn('bob', 'not-the-password');
    const unknownUser = await logIn('nobody-at-all', 'not-the-password');
    expect(errorCode(wrongPassword.body)).toBe('UNAUTHENTICATED');
    // Identical but for the id every response gets.
    const withoutRequestId = ({ errors }: Response) =>
      errors?.map(({ extensions, ...error }) => ({
        ...error,
        extensions: { ...extensions, requestId: undefined },
      }));
    expect(withoutRequestId(unknownUser.body)).toEqual(withoutRequestId(wrongPassword.body));
    expect(unknownUser.body.data).toEqual(wrongPassword.body.data);
    expect(wrongPassword.setCookies).toEqual([]);
    expect(unknownUser.setCookies).toEqual([]);
  });

  describe('throttling', () => {
    let throttled: TestApi;
    beforeAll(async () => {
      throttled = await startTestApi(database, {
        loginThrottle: { failuresPerUsernameAndIp: 3, failuresPerIpPerDay: 1000, blockSeconds: 60 },
      });
    });
    afterAll(() => throttled.stop());

    /** Three wrong passwords, then the right one: the answer to that last attempt. */
    async function blockedLogin(username: string) {
      for (let attempt = 1; attempt <= 3; attempt++) {
        const failure = await logIn(username, `wrong-${attempt}`, throttled.url);
        expect(errorCode(failure.body)).toBe('UNAUTHENTICATED');
      }
      return logIn(username, DEMO_PASSWORD, throttled.url);
    }

    it('repeated failures block the username, even for the right password, and not other users', async () => {
      const blocked = await blockedLogin('bob');
      expect(errorCode(blocked.body)).toBe('TOO_MANY_REQUESTS');
      expect(blocked.body.errors?.[0]?.extensions?.retryAfterSeconds).toBeGreaterThan(0);
      expect(blocked.setCookies).toEqual([]);

      const alice = await logIn('alice', DEMO_PASSWORD, throttled.url);
      expect(alice.body.errors).toBeUndefined();
      expect(alice.setCookies).toHaveLength(1);
    });

    it('the block lasts blockSeconds, not the day over which failures are counted', async () => {
      const blocked = await blockedLogin('carol');
      expect(errorCode(blocked.body)).toBe('TOO_MANY_REQUESTS');
      expect(blocked.body.errors?.[0]?.extensions?.retryAfterSeconds).toBeLessThanOrEqual(60);
    });
  });
});

describe('API keys', () => {
  const apiKeysQuery = graphql(`
    query ApiKeys {
      apiKeys {
        name
        role
        createdBy
        lastUsedAt
        revokedAt
      }
    }
  `);
  const apiKeyFieldsQuery = graphql(`
    query ApiKeyFields {
      __type(name: "ApiKey") {
        fields {
          name
        }
      }
    }
  `);

  it('an admin creates a key; it authenticates, is listed without its secret, and revoking it ends it at once', async () => {
    const created = await execute(admin, createApiKeyMutation, {
      name: 'nightly-import',
      role: 'editor',
    });
    expect(created.errors).toBeUndefined();
    const secret = created.data?.createApiKey.secret ?? '';
    expect(created.data?.createApiKey.apiKey).toEqual({ name: 'nightly-import', role: 'editor' });

    const bearer = { authorization: `Bearer ${secret}` };
    const me = await postGraphql(api.url, bearer, PRINCIPAL);
    expect(me.body.data?.me).toEqual({
      kind: 'apiKey',
      name: 'key:nightly-import',
      role: 'editor',
    });

    const listed = await execute(admin, apiKeysQuery);
    expect(listed.data?.apiKeys).toContainEqual({
      name: 'nightly-import',
      role: 'editor',
      createdBy: 'admin',
      lastUsedAt: expect.any(String),
      revokedAt: null,
    });
    const row = await database.prisma.apiKey.findUniqueOrThrow({
      where: { name: 'nightly-import' },
    });
    expect(row.keyHash).not.toBe(secret);
    expect(row.keyHash).not.toContain(secret.slice(4));
    expect(JSON.stringify(listed)).not.toContain(secret);
    expect(JSON.stringify(listed)).not.toContain(row.keyHash);
    const introspected = await execute(admin, apiKeyFieldsQuery);
    const fields = introspected.data?.__type?.fields;
    if (!fields) throw new Error(`no ApiKey fields: ${JSON.stringify(introspected)}`);
    expect(fields.map((field) => field.name)).not.toContainEqual(
      expect.stringMatching(/secret|hash/i),
    );

    const revoked = await execute(admin, revokeApiKeyMutation, { name: 'nightly-import' });
    expect(revoked.errors).toBeUndefined();
    const after = await postGraphql(api.url, bearer, TABLES);
    expect(errorCode(after.body)).toBe('UNAUTHENTICATED');
    expect(after.body.data ?? null).toBeNull();
  });

  it.each([
    ['an unknown bearer token', 'Bearer tlk_not-a-key'],
    ['an empty bearer token', 'Bearer '],
    ['another scheme', 'Basic YWxpY2U6dGFibGVsb2NrLWRlbW8='],
  ])(
    '%s does not fall back to the valid session cookie sent with it',
    async (_label, authorization) => {
      const alice = await api.loginAs('alice');
      expect((await execute(alice, tableNamesQuery)).errors).toBeUndefined();
      const response = await postGraphql(api.url, { ...alice.headers, authorization }, TABLES);
      expect(errorCode(response.body)).toBe('UNAUTHENTICATED');
      expect(response.body.data ?? null).toBeNull();
    },
  );
});

describe('the editor a lock records is the caller', () => {
  const acquireCurrenciesAs = (client: TestClient, editor: string) =>
    callLock(client, {
      table_name: 'currencies',
      current_status: 'normal',
      target_status: 'editing',
      editor,
    });

  beforeAll(async () => {
    await createUser(
      database.prisma,
      { username: 'frank', password: 'frank-password', role: 'editor' },
      TEST_AUDIT,
    );
    await updateUser(database.prisma, { username: 'frank', disabled: true }, TEST_AUDIT);
  });

  it.each([
    ['alice (an editor) for bob', () => api.loginAs('alice'), 'bob'],
    ['admin (an admin user, not a key) for bob', () => api.loginAs('admin'), 'bob'],
    ['an editor API key for bob', () => api.withApiKey('forge-editor', 'editor'), 'bob'],
    [
      'an admin API key for a user that does not exist',
      () => api.withApiKey('forge-admin-1', 'admin'),
      'nobody',
    ],
    [
      'an admin API key for a disabled user',
      () => api.withApiKey('forge-admin-2', 'admin'),
      'frank',
    ],
  ])('%s is FORBIDDEN and changes nothing', async (_label, connect, editor) => {
    const client = await connect();
    const before = await readRegistry(database.prisma);
    const response = await acquireCurrenciesAs(client, editor);
    expect(errorCode(response)).toBe('FORBIDDEN');
    expect(response.data?.UpdateTableStatusWithLock ?? null).toBeNull();
    expect(await readRegistry(database.prisma)).toEqual(before);
  });

  it('an admin API key may act for an existing user, whose lock it then is', async () => {
    const batch = await api.withApiKey('batch-admin', 'admin');
    const response = await acquireCurrenciesAs(batch, 'bob');
    expect(response.errors).toBeUndefined();
    expect(response.data?.UpdateTableStatusWithLock?.lock_result).toBe(true);
    expect((await readRegistry(database.prisma)).get('currencies')).toMatchObject({
      status: 'editing',
      editor: 'bob',
    });
    const bob = await api.loginAs('bob');
    const release = await callLock(bob, {
      table_name: 'currencies',
      current_status: 'editing',
      target_status: 'normal',
    });
    expect(release.data?.UpdateTableStatusWithLock?.lock_result).toBe(true);
  });

  it('a lock taken by an API key records key:<name>, so no key passes for a person', async () => {
    const importer = await api.withApiKey('importer', 'editor');
    const response = await callLock(importer, {
      table_name: 'currencies',
      current_status: 'normal',
      target_status: 'editing',
    });
    expect(response.data?.UpdateTableStatusWithLock?.lock_result).toBe(true);
    expect((await readRegistry(database.prisma)).get('currencies')?.editor).toBe('key:importer');
  });
});

describe("releasing someone else's lock", () => {
  const forceReleaseProducts = (reason: string) =>
    execute(admin, forceReleaseMutation, { table: 'products', reason });

  it('is FORBIDDEN to another editor; an admin force-releases it with its FK holds, given a reason', async () => {
    const alice = await api.loginAs('alice');
    const bob = await api.loginAs('bob');
    await acquireByLegacyMutation(alice, 'products');
    const held = await readRegistry(database.prisma);
    expect(held.get('currencies')).toMatchObject({ status: 'locked', lockedBy: ['products'] });

    const byBob = await callLock(bob, {
      table_name: 'products',
      current_status: 'editing',
      target_status: 'normal',
    });
    expect(errorCode(byBob)).toBe('FORBIDDEN');
    expect(await readRegistry(database.prisma)).toEqual(held);

    const forced = await forceReleaseProducts('alice is on holiday');
    expect(forced).toEqual({
      data: { forceRelease: { name: 'products', status: 'normal', editor: null } },
    });
    const after = await readRegistry(database.prisma);
    for (const table of ['products', 'categories', 'currencies', 'suppliers']) {
      expect(after.get(table)).toMatchObject({ status: 'normal', editor: null, lockedBy: [] });
    }
    expect(lockInvariantViolations(after)).toEqual([]);
  });

  it.each([
    ['an empty', ''],
    ['a whitespace-only', ' \t\n '],
  ])(
    'a force-release with %s reason is BAD_USER_INPUT and the lock stays',
    async (_label, reason) => {
      await acquireByLegacyMutation(await api.loginAs('alice'), 'products');
      const held = await readRegistry(database.prisma);
      const response = await forceReleaseProducts(reason);
      expect(errorCode(response)).toBe('BAD_USER_INPUT');
      expect(await readRegistry(database.prisma)).toEqual(held);
      expect(held.get('products')).toMatchObject({ status: 'editing', editor: 'alice' });
    },
  );
});
