import { DEMO_PASSWORD } from '@tablelock/identity';
import { createTestDatabase, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createUserMutation,
  loginMutation,
  tableNamesQuery,
  updateUserMutation,
} from './support/identityOperations';
import { logoutMutation, meQuery } from './support/lockOperations';
import { postGraphql, type AnyResponse as Response } from './support/postGraphql';
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
  api = await startTestApi(database);
  admin = await api.loginAs('admin');
});
afterAll(async () => {
  await api.stop();
  await database.close();
});

// Sent with postGraphql: these tests look at exactly the cookies sent and the Set-Cookie answered.
const LOGIN = loginMutation.toString();
const ME = meQuery.toString();
const TABLE_NAMES = tableNamesQuery.toString();
const LOGOUT = logoutMutation.toString();

const logIn = (username: string, password: string, url = api.url, headers = {}) =>
  postGraphql(url, headers, LOGIN, { username, password });

const errorCode = (response: GraphQLResponse<unknown>) => response.errors?.[0]?.extensions?.code;

const sessionCookies = (setCookies: string[]) =>
  setCookies.filter((header) => header.startsWith('tablelock_session='));
const CLEARED = /^tablelock_session=;.*Expires=Thu, 01 Jan 1970/;

/** Creates a user through the API, as an admin does. */
async function createUser(username: string, password: string) {
  const created = await execute(admin, createUserMutation, { username, password, role: 'editor' });
  expect(created.errors).toBeUndefined();
}

describe('a session cookie that no longer works', () => {
  const GARBAGE = { cookie: 'tablelock_session=tls_not-a-session-at-all' };

  it('does not stop the browser from logging in again after an admin resets the password', async () => {
    await createUser('reset-me', 'first-password');
    const before = await api.loginAs('reset-me', 'first-password');
    const reset = await execute(admin, updateUserMutation, {
      username: 'reset-me',
      password: 'second-password',
    });
    expect(reset.errors).toBeUndefined();

    const login = await logIn('reset-me', 'second-password', api.url, before.headers);
    expect(login.body).toEqual({
      data: { login: { kind: 'user', name: 'reset-me', role: 'editor' } },
    });
    // One cookie: the new session's, not a clearing one beside it.
    const [cookie, ...others] = sessionCookies(login.setCookies);
    expect(others).toEqual([]);
    expect(cookie).not.toMatch(CLEARED);
    const me = await postGraphql(api.url, { cookie: cookie?.split(';')[0] ?? '' }, ME);
    expect(me.body).toEqual({ data: { me: { name: 'reset-me' } } });
  });

  it('does not stop a login, and a garbage cookie is not taken for a session', async () => {
    const login = await logIn('alice', DEMO_PASSWORD, api.url, GARBAGE);
    expect(login.body.data?.login).toEqual({ kind: 'user', name: 'alice', role: 'editor' });
    expect(sessionCookies(login.setCookies)).toEqual([
      expect.stringMatching(/^tablelock_session=tls_/),
    ]);
  });

  it('is cleared by a failed login, which says why it failed', async () => {
    const login = await logIn('alice', 'not-the-password', api.url, GARBAGE);
    expect(errorCode(login.body)).toBe('UNAUTHENTICATED');
    expect(login.body.errors?.[0]?.message).toBe('Invalid username or password.');
    expect(sessionCookies(login.setCookies)).toEqual([expect.stringMatching(CLEARED)]);
  });

  it('is cleared by logout, which answers that no session ended', async () => {
    const logout = await postGraphql(api.url, GARBAGE, LOGOUT);
    expect(logout.body).toEqual({ data: { logout: false } });
    expect(sessionCookies(logout.setCookies)).toEqual([expect.stringMatching(CLEARED)]);
  });

  it('is cleared by any other operation, which is UNAUTHENTICATED (me too, as the web app expects)', async () => {
    for (const query of [ME, TABLE_NAMES]) {
      const response = await postGraphql(api.url, GARBAGE, query);
      expect(errorCode(response.body), query).toBe('UNAUTHENTICATED');
      expect(response.body.errors?.[0]?.message).toMatch(/session has ended/);
      expect(sessionCookies(response.setCookies), query).toEqual([expect.stringMatching(CLEARED)]);
    }
  });

  it('a live session cookie is left alone', async () => {
    const alice = await api.loginAs('alice');
    const me = await postGraphql(api.url, alice.headers, ME);
    expect(me.body).toEqual({ data: { me: { name: 'alice' } } });
    expect(me.setCookies).toEqual([]);
  });
});

describe('the login throttle under parallel attempts', () => {
  /** A server of its own: the throttle is per process, so other tests do not count here. */
  let throttled: TestApi;
  beforeAll(async () => {
    throttled = await startTestApi(database);
  });
  afterAll(() => throttled.stop());

  const codesOf = (responses: { body: Response }[]) => {
    const counts: Record<string, number> = {};
    for (const { body } of responses) {
      const code = errorCode(body) ?? 'OK';
      counts[code] = (counts[code] ?? 0) + 1;
    }
    return counts;
  };

  it('checks at most 5 of 30 parallel wrong passwords for one user; the rest are refused unchecked', async () => {
    const burst = await Promise.all(
      Array.from({ length: 30 }, (_, attempt) => logIn('bob', `wrong-${attempt}`, throttled.url)),
    );
    expect(codesOf(burst)).toEqual({ UNAUTHENTICATED: 5, TOO_MANY_REQUESTS: 25 });
    for (const { body } of burst.filter(({ body }) => errorCode(body) === 'TOO_MANY_REQUESTS')) {
      expect(body.errors?.[0]?.extensions?.retryAfterSeconds).toBeGreaterThan(0);
    }
    const right = await logIn('bob', DEMO_PASSWORD, throttled.url);
    expect(errorCode(right.body)).toBe('TOO_MANY_REQUESTS');
    expect(right.setCookies).toEqual([]);
  });

  // The rule: a successful login gives back its own attempt and nothing else. Failures counted
  // before or alongside it stay counted, so a right password in a burst cannot buy the wrong
  // ones more tries.
  it.each(['burst-1', 'burst-2', 'burst-3'])(
    'a right password in a burst (%s) does not reset the failures counted with it',
    async (username) => {
      await createUser(username, 'the-right-password');
      const burst = await Promise.all([
        ...Array.from({ length: 4 }, (_, attempt) =>
          logIn(username, `wrong-${attempt}`, throttled.url),
        ),
        logIn(username, 'the-right-password', throttled.url),
      ]);
      expect(codesOf(burst)).toEqual({ UNAUTHENTICATED: 4, OK: 1 });

      // Four failures stand: the fifth is checked, then the username is blocked.
      const fifth = await logIn(username, 'wrong-again', throttled.url);
      expect(errorCode(fifth.body)).toBe('UNAUTHENTICATED');
      const blocked = await logIn(username, 'the-right-password', throttled.url);
      expect(errorCode(blocked.body)).toBe('TOO_MANY_REQUESTS');
    },
  );

  it('a success alone gives its attempt back: a user who logs in often is never blocked', async () => {
    for (let attempt = 0; attempt < 8; attempt++) {
      const login = await logIn('carol', DEMO_PASSWORD, throttled.url);
      expect(login.body.errors).toBeUndefined();
    }
  });
});

describe('login input size', () => {
  /** Counts at most 2 failures per address: any refused input that counted would block it. */
  let strict: TestApi;
  beforeAll(async () => {
    strict = await startTestApi(database, {
      loginThrottle: { failuresPerUsernameAndIp: 2, failuresPerIpPerDay: 2, blockSeconds: 60 },
    });
  });
  afterAll(() => strict.stop());

  it.each([
    ['a 65-character username', 'a'.repeat(65), 'x-password'],
    ['a 90 kB username', 'u'.repeat(90_000), 'x-password'],
    ['a password of 1,025 bytes', 'bob', 'p'.repeat(1025)],
    ['a password of 1,026 bytes in 513 characters', 'bob', 'é'.repeat(513)],
  ])('%s is BAD_USER_INPUT and counts for nothing', async (_label, username, password) => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const login = await logIn(username, password, strict.url);
      expect(errorCode(login.body)).toBe('BAD_USER_INPUT');
      expect(login.setCookies).toEqual([]);
    }
    // Neither the username nor the address was charged: bob still logs in.
    const bob = await logIn('bob', DEMO_PASSWORD, strict.url);
    expect(bob.body.errors).toBeUndefined();
  });

  it('a 64-character username and a 1,024-byte password are checked as usual', async () => {
    const longName = await logIn('n'.repeat(64), 'x-password');
    expect(errorCode(longName.body)).toBe('UNAUTHENTICATED');
    const longPassword = await logIn('alice', 'p'.repeat(1024));
    expect(errorCode(longPassword.body)).toBe('UNAUTHENTICATED');
  });
});
