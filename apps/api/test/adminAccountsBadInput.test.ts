import { createTestDatabase, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createApiKeyMutation,
  createUserMutation,
  revokeApiKeyMutation,
  updateUserMutation,
} from './support/identityOperations';
import { execute, startTestApi, type TestApi, type TestClient } from './support/testApi';

// What the admin page's Users and API keys tabs send, with the mistakes people make there:
// each is BAD_USER_INPUT with a sentence, and leaves users, keys and the security log as they were.

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

/** Users, keys and security events, as stored. */
async function accounts() {
  const [users, keys, events] = await Promise.all([
    database.prisma.user.findMany({ orderBy: { username: 'asc' } }),
    database.prisma.apiKey.findMany({ orderBy: { name: 'asc' } }),
    database.prisma.securityEvent.count(),
  ]);
  return { users, keys, events };
}

describe('the admin page’s account changes refuse bad input and change nothing', () => {
  it.each([
    [
      'a user name that exists',
      () =>
        execute(admin, createUserMutation, {
          username: 'alice',
          password: 'long enough 1',
          role: 'viewer',
        }),
    ],
    [
      'an upper-case user name',
      () =>
        execute(admin, createUserMutation, {
          username: 'Dora',
          password: 'long enough 1',
          role: 'viewer',
        }),
    ],
    [
      'a first password under 8 characters',
      () =>
        execute(admin, createUserMutation, { username: 'dora', password: 'short', role: 'viewer' }),
    ],
    [
      'a new password under 8 characters',
      () => execute(admin, updateUserMutation, { username: 'alice', password: 'short' }),
    ],
    [
      'a change of a user nobody is named',
      () => execute(admin, updateUserMutation, { username: 'nobody', disabled: true }),
    ],
    [
      'a key name that is reserved',
      () => execute(admin, createApiKeyMutation, { name: 'cli', role: 'editor' }),
    ],
    ['a key nobody made', () => execute(admin, revokeApiKeyMutation, { name: 'nothing-here' })],
  ])('%s', async (_mistake, send) => {
    const before = await accounts();
    const response = await send();
    expect(response.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(response.errors?.[0]?.message).toMatch(/\w+/);
    expect(response.data ?? null).toBeNull();
    expect(await accounts()).toEqual(before);
  });
});
