import { createTestDatabase, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './generated';
import {
  acquireTableLockAs,
  forceReleaseMutation,
  saveRowsMutation,
} from './support/lockOperations';
import { execute, startTestApi, type TestApi, type TestClient } from './support/testApi';

let database: TestDatabase;
let api: TestApi;
let alice: TestClient;
let carol: TestClient;
let admin: TestClient;

beforeAll(async () => {
  database = await createTestDatabase();
  api = await startTestApi(database);
  [alice, carol, admin] = await Promise.all([
    api.loginAs('alice'),
    api.loginAs('carol'),
    api.loginAs('admin'),
  ]);
});
afterAll(async () => {
  await api.stop();
  await database.close();
});

const rowsQuery = graphql(`
  query Rows($table: String!, $filter: [RowFilter!]) {
    rows(table: $table, filter: $filter, limit: 5) {
      total
      editable
      columns {
        name
        kind
      }
      rows {
        key
        version
        values
      }
    }
  }
`);

describe('rows and saveRows over GraphQL', () => {
  it('lets a viewer read rows but not save them', async () => {
    const read = await execute(carol, rowsQuery, { table: 'warehouses' });
    expect(read.data?.rows).toMatchObject({ total: 4, editable: true });
    const save = await execute(carol, saveRowsMutation, {
      table: 'warehouses',
      token: '1',
      changes: { deletes: [{ key: { id: '4' }, version: '1' }] },
    });
    expect(save.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(
      (await execute(api.anonymous, rowsQuery, { table: 'warehouses' })).errors?.[0]?.extensions
        ?.code,
    ).toBe('UNAUTHENTICATED');
  });

  it('saves for the holder, and is LOCK_LOST once an admin force-released the lock', async () => {
    const { token } = await acquireTableLockAs(alice, 'warehouses');
    expect(token).toMatch(/^\d+$/);
    const read = await execute(alice, rowsQuery, {
      table: 'warehouses',
      filter: [{ column: 'id', operator: 'equals', value: '2' }],
    });
    const osaka = read.data?.rows.rows[0];
    if (!osaka) throw new Error(`no warehouse 2 to update: ${JSON.stringify(read)}`);
    const saved = await execute(alice, saveRowsMutation, {
      table: 'warehouses',
      token,
      changes: {
        updates: [{ key: osaka.key, version: osaka.version, values: { name: 'Osaka port' } }],
      },
    });
    expect(saved.data?.saveRows).toMatchObject({ saved: true, updated: 1 });

    const released = await execute(admin, forceReleaseMutation, {
      table: 'warehouses',
      reason: 'stale lock',
    });
    expect(released.errors).toBeUndefined();
    const lost = await execute(alice, saveRowsMutation, {
      table: 'warehouses',
      token,
      changes: {
        inserts: [
          {
            values: {
              id: '9',
              code: 'WH-X',
              name: 'X',
              region_id: '10',
              capacity_m3: '1',
              opened_on: '2026-01-01',
            },
          },
        ],
      },
    });
    expect(lost.errors?.[0]?.extensions?.code).toBe('LOCK_LOST');
    expect(lost.errors?.[0]?.message).toContain('admin force-released your lock on warehouses');
    expect(lost.errors?.[0]?.message).toContain('stale lock');
    const after = await execute(alice, rowsQuery, { table: 'warehouses' });
    expect(after.data?.rows.total).toBe(4);
  });
});

const pagedRowsQuery = graphql(`
  query PagedRows(
    $table: String!
    $offset: Int
    $limit: Int
    $sort: [RowSort!]
    $filter: [RowFilter!]
    $after: String
    $before: String
  ) {
    rows(
      table: $table
      offset: $offset
      limit: $limit
      sort: $sort
      filter: $filter
      after: $after
      before: $before
    ) {
      total
      startCursor
      endCursor
      rows {
        key
      }
    }
  }
`);

const byName = [{ column: 'name', direction: 'desc' as const }];
const tea = [{ column: 'name', operator: 'contains' as const, value: 'tea' }];

describe('rows by cursor over GraphQL', () => {
  it('pages after and before a cursor as offset paging does', async () => {
    const first = await execute(carol, pagedRowsQuery, {
      table: 'products',
      sort: byName,
      filter: tea,
      limit: 50,
    });
    const endCursor = first.data?.rows.endCursor;
    expect(endCursor).toEqual(expect.any(String));
    const next = await execute(carol, pagedRowsQuery, {
      table: 'products',
      sort: byName,
      filter: tea,
      limit: 50,
      after: endCursor,
    });
    const byOffset = await execute(carol, pagedRowsQuery, {
      table: 'products',
      sort: byName,
      filter: tea,
      limit: 50,
      offset: 50,
    });
    expect(next.data?.rows.rows).toEqual(byOffset.data?.rows.rows);
    expect(next.data?.rows.total).toBe(10_000);
    const back = await execute(carol, pagedRowsQuery, {
      table: 'products',
      sort: byName,
      filter: tea,
      limit: 50,
      before: next.data?.rows.startCursor,
    });
    expect(back.data?.rows.rows).toEqual(first.data?.rows.rows);
  });

  it('refuses a cursor from another sort or filter with BAD_USER_INPUT', async () => {
    const first = await execute(carol, pagedRowsQuery, {
      table: 'products',
      sort: byName,
      limit: 5,
    });
    const after = first.data?.rows.endCursor;
    const otherSort = await execute(carol, pagedRowsQuery, {
      table: 'products',
      sort: [{ column: 'name', direction: 'asc' }],
      after,
    });
    const otherFilter = await execute(carol, pagedRowsQuery, {
      table: 'products',
      sort: byName,
      filter: tea,
      after,
    });
    for (const refused of [otherSort, otherFilter]) {
      expect(refused.data).toBeNull();
      expect(refused.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(refused.errors?.[0]?.message).toContain('another table, sort or filter');
    }
  });
});
