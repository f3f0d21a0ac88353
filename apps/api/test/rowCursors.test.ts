import { createTestDatabase, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './generated';
import { execute, startTestApi, type TestApi, type TestClient } from './support/testApi';

let database: TestDatabase;
let api: TestApi;
let carol: TestClient;

beforeAll(async () => {
  database = await createTestDatabase();
  api = await startTestApi(database);
  carol = await api.loginAs('carol');
});
afterAll(async () => {
  await api.stop();
  await database.close();
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
