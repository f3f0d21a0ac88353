import { createTestDatabase, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './generated';
import { acquireTableLockAs, releaseTableLockAs } from './support/lockOperations';
import { execute, startTestApi, type TestApi, type TestClient } from './support/testApi';

let database: TestDatabase;
let api: TestApi;
let admin: TestClient;
let alice: TestClient;
let carol: TestClient;

beforeAll(async () => {
  database = await createTestDatabase();
  api = await startTestApi(database);
  [admin, alice, carol] = await Promise.all([
    api.loginAs('admin'),
    api.loginAs('alice'),
    api.loginAs('carol'),
  ]);
});
afterAll(async () => {
  await api.stop();
  await database.close();
});

const changeFeedQuery = graphql(`
  query ChangeFeed($after: String, $first: Int, $tables: [String!], $types: [String!]) {
    changeFeed(after: $after, first: $first, tables: $tables, types: $types) {
      events {
        id
        table
        type
        at
        data
      }
      endCursor
    }
  }
`);

type Feed = { after?: string | null; first?: number; tables?: string[]; types?: string[] };

async function feed(variables: Feed, client = admin) {
  const response = await execute(client, changeFeedQuery, variables);
  if (!response.data) throw new Error(JSON.stringify(response.errors));
  return response.data.changeFeed;
}

describe('changeFeed', () => {
  it('replays exactly the events after any cursor it gave', async () => {
    for (const table of ['categories', 'suppliers', 'categories']) {
      const grant = await acquireTableLockAs(alice, table);
      await releaseTableLockAs(alice, table, grant.token);
    }
    const cursors: (string | null)[] = [null];
    const seen: string[] = [];
    for (;;) {
      const page = await feed({ after: cursors.at(-1), first: 1 });
      if (page.events.length === 0) break;
      seen.push(...page.events.map((event) => `${event.table} ${event.type} ${event.id}`));
      cursors.push(page.endCursor);
    }
    expect(seen.map((line) => line.split(' ').slice(0, 2).join(' '))).toEqual([
      'categories acquire',
      'categories release',
      'suppliers acquire',
      'suppliers release',
      'categories acquire',
      'categories release',
    ]);
    for (const [k, cursor] of cursors.entries()) {
      const page = await feed({ after: cursor, first: 100 });
      expect(page.events.map((event) => `${event.table} ${event.type} ${event.id}`)).toEqual(
        seen.slice(k),
      );
    }
    const releases = await feed({ tables: ['categories'], types: ['release'] });
    expect(releases.events.map((event) => [event.table, event.type, event.data?.actor])).toEqual([
      ['categories', 'release', 'alice'],
      ['categories', 'release', 'alice'],
    ]);
  });

  it.each<[Feed, string]>([
    [{ types: ['acquired'] }, 'There is no event type acquired.'],
    [{ tables: ['no_such_table'] }, 'There is no table no_such_table.'],
    [{ after: 'not-a-cursor' }, 'This is not a cursor of the change feed.'],
    [{ first: 501 }, 'first must be 1 to 500.'],
  ])('refuses %j as BAD_USER_INPUT', async (variables, message) => {
    const response = await execute(admin, changeFeedQuery, variables);
    expect(response.errors?.[0]).toMatchObject({ message, extensions: { code: 'BAD_USER_INPUT' } });
  });

  it('is for admins', async () => {
    const response = await execute(carol, changeFeedQuery, { first: 1 });
    expect(response.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});
