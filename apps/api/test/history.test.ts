import { syncWriteGuards } from '@tablelock/master-data';
import { createTestDatabase, MASTER_SCHEMA, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './generated';
import { acquireTableLockAs, releaseTableLockAs, saveRowsMutation } from './support/lockOperations';
import { execute, startTestApi, type TestApi, type TestClient } from './support/testApi';

let database: TestDatabase;
let api: TestApi;
let alice: TestClient;
let carol: TestClient;

beforeAll(async () => {
  database = await createTestDatabase();
  // The guard's triggers record the history: RECORD, the default of every master table.
  await syncWriteGuards(database.prisma, MASTER_SCHEMA, 'RECORD');
  api = await startTestApi(database);
  [alice, carol] = await Promise.all([api.loginAs('alice'), api.loginAs('carol')]);
});
afterAll(async () => {
  await api.stop();
  await database.close();
});

const tableChangesQuery = graphql(`
  query HistoryTableChanges($table: String!, $after: String, $first: Int, $filter: ChangeSetFilter) {
    tableChanges(table: $table, after: $after, first: $first, filter: $filter) {
      changes {
        id
        kind
        actor
        rowsUpdated
        rows {
          rows {
            key
            operation
            oldValues
            newValues
          }
        }
      }
      endCursor
    }
  }
`);

const rowHistoryQuery = graphql(`
  query HistoryRowHistory($table: String!, $key: JSON!, $after: String, $first: Int) {
    rowHistory(table: $table, key: $key, after: $after, first: $first) {
      rows {
        operation
        newValues
        change {
          id
          actor
        }
      }
      endCursor
    }
  }
`);

const revertChangeMutation = graphql(`
  mutation HistoryRevertChange($table: String!, $changeId: ID!, $token: String!, $dryRun: Boolean) {
    revertChange(table: $table, changeId: $changeId, token: $token, dryRun: $dryRun) {
      reverted
      rows {
        key
        action
        values
      }
      conflicts {
        key
      }
    }
  }
`);

const rowQuery = graphql(`
  query HistoryRow($table: String!, $id: String!) {
    rows(table: $table, filter: [{ column: "id", operator: equals, value: $id }]) {
      rows {
        version
        values
      }
    }
  }
`);

async function renameWarehouse(name: string) {
  const { token } = await acquireTableLockAs(alice, 'warehouses');
  const read = await execute(alice, rowQuery, { table: 'warehouses', id: '3' });
  const version = read.data?.rows.rows[0]?.version ?? '';
  const saved = await execute(alice, saveRowsMutation, {
    table: 'warehouses',
    token,
    changes: { updates: [{ key: { id: '3' }, version, values: { name } }] },
  });
  expect(saved.data?.saveRows.saved).toBe(true);
  await releaseTableLockAs(alice, 'warehouses', token);
}

const code = (response: { errors?: readonly { extensions?: Record<string, unknown> }[] }) =>
  response.errors?.[0]?.extensions?.code;

describe('the row history over GraphQL', () => {
  it('shows a viewer the saves newest first, page by page, each with its rows old → new', async () => {
    const before = (await execute(alice, rowQuery, { table: 'warehouses', id: '3' })).data?.rows
      .rows[0]?.values.name;
    await renameWarehouse('First name');
    await renameWarehouse('Second name');

    const first = await execute(carol, tableChangesQuery, { table: 'warehouses', first: 1 });
    expect(first.data?.tableChanges.changes).toEqual([
      {
        id: expect.any(String),
        kind: 'save',
        actor: 'alice',
        rowsUpdated: 1,
        rows: {
          rows: [
            {
              key: { id: '3' },
              operation: 'update',
              oldValues: { name: 'First name' },
              newValues: { name: 'Second name' },
            },
          ],
        },
      },
    ]);
    const second = await execute(carol, tableChangesQuery, {
      table: 'warehouses',
      first: 1,
      after: first.data?.tableChanges.endCursor ?? '',
    });
    expect(second.data?.tableChanges.changes[0]?.rows.rows[0]).toMatchObject({
      oldValues: { name: before },
      newValues: { name: 'First name' },
    });
    const filtered = await execute(carol, tableChangesQuery, {
      table: 'warehouses',
      filter: { user: 'bob', kinds: ['save'] },
    });
    expect(filtered.data?.tableChanges).toEqual({ changes: [], endCursor: null });

    const history = await execute(carol, rowHistoryQuery, {
      table: 'warehouses',
      key: { id: '3' },
    });
    expect(history.data?.rowHistory.rows.map((row) => row.newValues?.name)).toEqual([
      'Second name',
      'First name',
    ]);
  });

  it('refuses bad cursors, keys and page sizes with BAD_USER_INPUT', async () => {
    await renameWarehouse('Cursor');
    await renameWarehouse('Cursor again');
    const page = await execute(carol, tableChangesQuery, { table: 'warehouses', first: 1 });
    const cursor = page.data?.tableChanges.endCursor ?? '';
    expect(cursor).not.toBe('');
    const badPages: { table: string; after?: string; first?: number }[] = [
      { table: 'warehouses', after: 'not a cursor' },
      { table: 'regions', after: cursor },
      { table: 'warehouses', first: 0 },
    ];
    for (const variables of badPages) {
      expect(code(await execute(carol, tableChangesQuery, variables))).toBe('BAD_USER_INPUT');
    }
    expect(
      code(
        await execute(carol, rowHistoryQuery, {
          table: 'warehouses',
          key: { id: '3' },
          after: cursor,
        }),
      ),
    ).toBe('BAD_USER_INPUT');
    expect(
      code(await execute(carol, rowHistoryQuery, { table: 'warehouses', key: { name: 'x' } })),
    ).toBe('BAD_USER_INPUT');
    expect(code(await execute(carol, tableChangesQuery, { table: 'nope' }))).toBe(
      'TABLE_NOT_FOUND',
    );
  });

  it('reverts for the lock holder only: a viewer is FORBIDDEN, an editor without the lock LOCK_LOST', async () => {
    await renameWarehouse('To revert');
    const page = await execute(alice, tableChangesQuery, { table: 'warehouses', first: 1 });
    const changeId = page.data?.tableChanges.changes[0]?.id ?? '';
    const { token } = await acquireTableLockAs(alice, 'warehouses');
    const revert = (client: TestClient, variables: { changeId?: string; token?: string }) =>
      execute(client, revertChangeMutation, { table: 'warehouses', changeId, token, ...variables });

    expect(code(await revert(carol, {}))).toBe('FORBIDDEN');
    expect(code(await revert(alice, { changeId: '999999999' }))).toBe('NOT_FOUND');
    const dryRun = await revert(alice, {});
    expect(dryRun.data?.revertChange).toMatchObject({
      reverted: false,
      rows: [{ key: { id: '3' }, action: 'update', values: { name: expect.any(String) } }],
      conflicts: [],
    });
    await releaseTableLockAs(alice, 'warehouses', token);
    expect(code(await revert(alice, {}))).toBe('LOCK_LOST');
    const after = await execute(alice, rowQuery, { table: 'warehouses', id: '3' });
    expect(after.data?.rows.rows[0]?.values.name).toBe('To revert');
  });
});
