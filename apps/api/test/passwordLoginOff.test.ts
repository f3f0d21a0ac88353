import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import {
  API_DIR,
  COMPILED_CLI,
  createTestDatabase,
  type TestDatabase,
} from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './generated';
import { loginMutation, tableNamesQuery } from './support/identityOperations';
import { execute, startTestApi, type TestApi } from './support/testApi';

let database: TestDatabase;
let api: TestApi;
const BREAK_GLASS_PASSWORD = 'a long break-glass passphrase';

beforeAll(async () => {
  database = await createTestDatabase();
  api = await startTestApi(database, { passwordLogin: false });
  const cli = promisify(execFile)(
    process.execPath,
    [...COMPILED_CLI, 'create-break-glass-admin', 'ops'],
    { cwd: API_DIR, env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'silent' } },
  );
  cli.child.stdin?.end(`${BREAK_GLASS_PASSWORD}\n`);
  expect((await cli).stdout).toContain('created break-glass admin ops');
});
afterAll(async () => {
  await api.stop();
  await database.close();
});

const failedLoginsQuery = graphql(`
  query PasswordLoginFailures($user: String) {
    securityEvents(filter: { user: $user, actions: [login_failed] }) {
      events { subject loginFailure signInMethod }
    }
  }
`);

async function logIn(username: string, password: string) {
  const response = await fetch(`${api.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: loginMutation.toString(), variables: { username, password } }),
  });
  return {
    setsCookie: response.headers.getSetCookie().some((c) => c.startsWith('tablelock_session=')),
    body: (await response.json()) as {
      data?: unknown;
      errors?: { extensions: { code: string } }[];
    },
  };
}

describe('PASSWORD_LOGIN=false', () => {
  it('tells the login page that the password form is off', async () => {
    expect(
      (
        await execute(
          api.anonymous,
          graphql(`query PasswordLoginProviders { authProviders { passwordLogin oidc { name } } }`),
        )
      ).data,
    ).toEqual({
      authProviders: { passwordLogin: false, oidc: null },
    });
  });

  it('refuses a password login with PASSWORD_LOGIN_DISABLED, the right password or not', async () => {
    for (const [username, password] of [
      ['alice', 'tablelock-demo'],
      ['alice', 'wrong password'],
      ['nobody', 'tablelock-demo'],
      ['ops', 'not the passphrase'],
    ] as const) {
      const attempt = await logIn(username, password);
      expect(attempt.setsCookie).toBe(false);
      expect(attempt.body.errors?.[0]?.extensions.code).toBe('PASSWORD_LOGIN_DISABLED');
    }
    const admin = await api.withApiKey('audit-reader', 'admin');
    const failures = await execute(admin, failedLoginsQuery, { user: 'alice' });
    expect(failures.data?.securityEvents.events).toEqual([
      { subject: 'alice', loginFailure: 'wrong_password', signInMethod: 'password' },
      { subject: 'alice', loginFailure: 'password_login_disabled', signInMethod: 'password' },
    ]);
  });

  it('lets a break-glass admin made on the command line log in with a password', async () => {
    const attempt = await logIn('ops', BREAK_GLASS_PASSWORD);
    expect(attempt.setsCookie).toBe(true);
    expect(attempt.body).toEqual({ data: { login: { kind: 'user', name: 'ops', role: 'admin' } } });
    const ops = await api.loginAs('ops', BREAK_GLASS_PASSWORD);
    const users = await execute(
      ops,
      graphql(`query BreakGlassUsers { users { username breakGlass roleSource } }`),
    );
    expect(users.data?.users.filter((user) => user.breakGlass)).toEqual([
      { username: 'ops', breakGlass: true, roleSource: 'local' },
    ]);
  });

  it('leaves API keys as they are', async () => {
    const key = await api.withApiKey('nightly-import', 'editor');
    const tables = await execute(key, tableNamesQuery);
    expect(tables.errors).toBeUndefined();
    expect(tables.data?.tables.length).toBeGreaterThan(0);
  });
});
