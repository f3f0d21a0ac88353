import { createTestDatabase, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callLock, type LockInput } from './support/lockApi';
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

const acquireProducts: LockInput = {
  table_name: 'products',
  current_status: 'normal',
  target_status: 'editing',
  editor: 'alice',
};

/** Runs `send`, expects one error with `code`, and checks that the registry did not change. */
async function expectRejected(
  send: () => Promise<{ errors?: { message: string; extensions?: { code?: string } }[] }>,
  code: string,
) {
  const before = await readRegistry(database.prisma);
  const response = await send();
  expect(response.errors?.[0]?.extensions?.code).toBe(code);
  expect(response.errors?.[0]?.message).toBeTruthy();
  expect(JSON.stringify(response)).not.toMatch(/at .*\.ts:\d+/);
  expect(await readRegistry(database.prisma)).toEqual(before);
}

describe('bad input gets a clear error with extensions.code and changes nothing', () => {
  it('unknown table', () =>
    expectRejected(
      () => callLock(alice, { ...acquireProducts, table_name: 'nope' }),
      'TABLE_NOT_FOUND',
    ));

  it('fk_table_name without fk_current_status', () =>
    expectRejected(
      () =>
        callLock(alice, {
          ...acquireProducts,
          fk_table_name: ['categories'],
          fk_target_status: 'locked',
        }),
      'BAD_USER_INPUT',
    ));

  it('fk_table_name without any FK statuses', () =>
    expectRejected(
      () => callLock(alice, { ...acquireProducts, fk_table_name: ['categories'] }),
      'BAD_USER_INPUT',
    ));

  it('a status that is not in the enum, as a variable', () =>
    expectRejected(
      () =>
        callLock(alice, {
          ...acquireProducts,
          target_status: 'frozen' as LockInput['target_status'],
        }),
      'BAD_USER_INPUT',
    ));

  it('a status that is not in the enum, inline in the query', () =>
    expectRejected(
      () =>
        alice.graphql(
          'mutation { UpdateTableStatusWithLock(input: { table_name: "products", current_status: normal, target_status: frozen, editor: "alice" }) { lock_result } }',
        ),
      'GRAPHQL_VALIDATION_FAILED',
    ));

  it('more FK tables than allowed', () =>
    expectRejected(
      () =>
        callLock(alice, {
          ...acquireProducts,
          fk_table_name: Array.from({ length: 65 }, (_, i) => `table_${i}`),
          fk_current_status: 'normal',
          fk_target_status: 'locked',
        }),
      'BAD_USER_INPUT',
    ));

  it('a table name longer than Postgres allows', () =>
    expectRejected(
      () => callLock(alice, { ...acquireProducts, table_name: 'x'.repeat(64) }),
      'BAD_USER_INPUT',
    ));

  it('an editor that is not the caller', () =>
    expectRejected(() => callLock(alice, { ...acquireProducts, editor: 'bob' }), 'FORBIDDEN'));

  it('a blank editor', () =>
    expectRejected(() => callLock(alice, { ...acquireProducts, editor: '   ' }), 'BAD_USER_INPUT'));

  it('the table itself among its FK tables', () =>
    expectRejected(
      () =>
        callLock(alice, {
          ...acquireProducts,
          fk_table_name: ['products'],
          fk_current_status: 'normal',
          fk_target_status: 'locked',
        }),
      'BAD_USER_INPUT',
    ));

  it('a request body over the size limit is refused with 413', async () => {
    const before = await readRegistry(database.prisma);
    const response = await fetch(`${api.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query:
          'mutation($input: UpdateTableStatusWithLockInput!) { UpdateTableStatusWithLock(input: $input) { lock_result } }',
        variables: { input: { ...acquireProducts, editor: 'a'.repeat(200_000) } },
      }),
    });
    expect(response.status).toBe(413);
    expect(await readRegistry(database.prisma)).toEqual(before);
  });
});
