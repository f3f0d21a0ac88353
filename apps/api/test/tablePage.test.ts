import { syncTableRegistry } from '@tablelock/lock';
import { MASTER_SCHEMA } from '@tablelock/test-support';
import { manyMasterTablesSql, manyTableName } from '@tablelock/test-support/manyMasterTables';
import { beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './generated';
import { subscribeLockChanges } from './support/lockChanges';
import { acquireTableLockAs, refusal, releaseTableLockAs } from './support/lockOperations';
import { useSignedInApi } from './support/signedInApi';
import { execute, type TestClient } from './support/testApi';

// The tables page reads one page at a time: search, status filter and counts are the server's.

const signedIn = useSignedInApi();
const MANY = 300;

const tablePageQuery = graphql(`
  query TablePageOfTables($search: String, $status: TableStatus, $offset: Int, $limit: Int) {
    tablePage(search: $search, status: $status, offset: $offset, limit: $limit) {
      total
      counts {
        normal
        editing
        locked
      }
      tables {
        ...EveryTableField
      }
    }
  }
`);

const everyTableQuery = graphql(`
  query EveryTable {
    tables {
      ...EveryTableField
    }
  }

  fragment EveryTableField on TableInfo {
    name
    status
    editor
    lockedBy
    references
    referencedBy
    version
    acquiredAt
    leaseExpiresAt
    editBlock {
      kind
      blockers {
        table
        editor
      }
    }
    waiters {
      editor
    }
  }
`);

async function pageOf(
  client: TestClient,
  variables: {
    search?: string;
    status?: 'normal' | 'editing' | 'locked';
    offset?: number;
    limit?: number;
  },
) {
  const response = await execute(client, tablePageQuery, variables);
  if (response.errors || !response.data) throw new Error(JSON.stringify(response.errors));
  return response.data.tablePage;
}

async function everyTable(client: TestClient) {
  const response = await execute(client, everyTableQuery);
  if (response.errors || !response.data) throw new Error(JSON.stringify(response.errors));
  return response.data.tables;
}

beforeAll(async () => {
  for (const script of manyMasterTablesSql(MASTER_SCHEMA, MANY)) {
    await signedIn.database.prisma.$executeRawUnsafe(script);
  }
  await syncTableRegistry(signedIn.database.prisma, MASTER_SCHEMA);
});

describe('tablePage', () => {
  it('finds tables by any part of their name, in any case, by name', async () => {
    const page = await pageOf(signedIn.bob, { search: 'MANY_0012' });
    expect(page.tables.map((table) => table.name)).toEqual(
      Array.from({ length: 10 }, (_, i) => manyTableName(120 + i)),
    );
    expect(page.total).toBe(10);
    expect(page.counts).toEqual({ normal: 10, editing: 0, locked: 0 });
  });

  it('takes the wildcards of a search literally', async () => {
    expect((await pageOf(signedIn.bob, { search: '%' })).total).toBe(0);
    const everyWithUnderscore = (await everyTable(signedIn.bob)).filter((table) =>
      table.name.includes('_'),
    );
    expect((await pageOf(signedIn.bob, { search: '_', limit: 500 })).total).toBe(
      everyWithUnderscore.length,
    );
  });

  it('pages through every table by name, each exactly once', async () => {
    const all = await everyTable(signedIn.bob);
    const names: string[] = [];
    for (let offset = 0; offset < all.length; offset += 70) {
      const page = await pageOf(signedIn.bob, { offset, limit: 70 });
      expect(page.total).toBe(all.length);
      names.push(...page.tables.map((table) => table.name));
    }
    expect(names).toEqual(all.map((table) => table.name));
  });

  it('filters by status and counts each status in the database', async () => {
    // many_00005 references many_00003 and many_00004: both become locked.
    await acquireTableLockAs(signedIn.alice, manyTableName(5));
    const locked = await pageOf(signedIn.bob, { search: 'many_', status: 'locked' });
    expect(locked.tables.map((table) => [table.name, table.editor, table.lockedBy])).toEqual([
      [manyTableName(3), 'alice', [manyTableName(5)]],
      [manyTableName(4), 'alice', [manyTableName(5)]],
    ]);
    expect(locked.total).toBe(2);
    expect(locked.counts).toEqual({ normal: MANY - 3, editing: 1, locked: 2 });
    const editing = await pageOf(signedIn.bob, { status: 'editing' });
    expect(editing.tables.map((table) => table.name)).toEqual([manyTableName(5)]);
  });

  it('describes each table as the whole list does, for each caller', async () => {
    await acquireTableLockAs(signedIn.alice, manyTableName(7));
    await acquireTableLockAs(signedIn.bob, 'products');
    for (const caller of [signedIn.alice, signedIn.bob]) {
      const all = new Map((await everyTable(caller)).map((table) => [table.name, table]));
      for (const search of ['many_0000', 'many_0001', 'c']) {
        const page = await pageOf(caller, { search, limit: 40 });
        expect(page.tables.length).toBeGreaterThan(0);
        for (const table of page.tables) expect(table).toEqual(all.get(table.name));
      }
    }
  });

  it.each<[string, { search?: string; offset?: number; limit?: number }]>([
    ['a limit of 0', { limit: 0 }],
    ['a limit over 500', { limit: 501 }],
    ['a negative offset', { offset: -1 }],
    ['a search over 200 characters', { search: 'x'.repeat(201) }],
  ])('refuses %s with BAD_USER_INPUT', async (_what, variables) => {
    const response = await execute(signedIn.bob, tablePageQuery, variables);
    expect(refusal(response).code).toBe('BAD_USER_INPUT');
    expect(response.data?.tablePage).toBeUndefined();
  });
});

describe('tablesNamed', () => {
  const tablesNamedQuery = graphql(`
    query TablesNamed($names: [String!]!) {
      tablesNamed(names: $names) {
        ...EveryTableField
      }
    }
  `);

  it('reads the tables of those names that exist, by name, as the whole list has them', async () => {
    await acquireTableLockAs(signedIn.alice, manyTableName(21));
    const names = [manyTableName(21), 'no_such_table', manyTableName(19), 'currencies'];
    const response = await execute(signedIn.bob, tablesNamedQuery, { names });
    const all = new Map((await everyTable(signedIn.bob)).map((table) => [table.name, table]));
    expect(response.data?.tablesNamed).toEqual(
      ['currencies', manyTableName(19), manyTableName(21)].map((name) => all.get(name)),
    );
  });

  it('reads the tables a table references with it, in their lock states, as tablesNamed has them', async () => {
    const withReferences = graphql(`
      query TableWithReferencedTables($names: [String!]!) {
        tablesNamed(names: $names) {
          name
          references
          referencedTables {
            ...EveryTableField
          }
        }
      }
    `);
    const grant = await acquireTableLockAs(signedIn.alice, 'products');
    try {
      const response = await execute(signedIn.bob, withReferences, { names: ['products'] });
      const [products] = response.data?.tablesNamed ?? [];
      expect(products?.references).toEqual(['categories', 'currencies', 'suppliers']);
      const named = await execute(signedIn.bob, tablesNamedQuery, {
        names: products?.references ?? [],
      });
      expect(products?.referencedTables).toEqual(named.data?.tablesNamed);
      expect(products?.referencedTables.map((table) => [table.name, table.status])).toEqual([
        ['categories', 'locked'],
        ['currencies', 'locked'],
        ['suppliers', 'locked'],
      ]);
    } finally {
      await releaseTableLockAs(signedIn.alice, 'products', grant.token);
    }
  });

  it('refuses more than 500 names with BAD_USER_INPUT', async () => {
    const names = Array.from({ length: 501 }, (_, i) => manyTableName(i));
    expect(refusal(await execute(signedIn.bob, tablesNamedQuery, { names })).code).toBe(
      'BAD_USER_INPUT',
    );
  });
});

/** The lockChanged events bob's subscription receives. */
const bobsLockChanges = () =>
  subscribeLockChanges({
    url: signedIn.api.url,
    headers: signedIn.bob.headers,
    prisma: signedIn.database.prisma,
  });

describe('live events carry the new state of the tables they wrote', () => {
  it('announces the table and the FK targets it locked and freed, as the tables query then reads them', async () => {
    const changes = await bobsLockChanges();
    try {
      const grant = await acquireTableLockAs(signedIn.alice, manyTableName(10));
      const acquired = await changes.waitFor((change) => change.action === 'acquire');
      const all = new Map((await everyTable(signedIn.bob)).map((table) => [table.name, table]));
      const stateOf = (name: string) => {
        const table = all.get(name);
        return {
          name,
          status: table?.status,
          editor: table?.editor,
          lockedBy: table?.lockedBy,
          version: table?.version,
          acquiredAt: table?.acquiredAt ?? null,
          leaseExpiresAt: table?.leaseExpiresAt ?? null,
        };
      };
      const written = [manyTableName(8), manyTableName(9), manyTableName(10)];
      expect(
        acquired.tables?.map(({ updatedAt: _, previousStatus: __, ...state }) => state),
      ).toEqual(written.map(stateOf));
      expect(acquired.tables?.map((state) => state.previousStatus)).toEqual([
        'normal',
        'normal',
        'normal',
      ]);
      expect(acquired.tables?.[2]).toMatchObject({ status: 'editing', editor: 'alice' });
      expect(acquired.tables?.[2]?.leaseExpiresAt).not.toBeNull();

      await releaseTableLockAs(signedIn.alice, manyTableName(10), grant.token);
      const released = await changes.waitFor((change) => change.action === 'release');
      expect(
        released.tables?.map((state) => [
          state.name,
          state.previousStatus,
          state.status,
          state.editor,
        ]),
      ).toEqual([
        [manyTableName(8), 'locked', 'normal', null],
        [manyTableName(9), 'locked', 'normal', null],
        [manyTableName(10), 'editing', 'normal', null],
      ]);
    } finally {
      await changes.close();
    }
  });

  it("names a locked table's first holder's editor, whether or not that holder changed", async () => {
    const changes = await bobsLockChanges();
    try {
      // price_lists and products both reference currencies.
      const bobs = await acquireTableLockAs(signedIn.bob, 'price_lists');
      await acquireTableLockAs(signedIn.alice, 'products');
      const second = await changes.waitFor(
        (change) => change.action === 'acquire' && change.table === 'products',
      );
      expect(second.tables?.find((state) => state.name === 'currencies')).toMatchObject({
        status: 'locked',
        lockedBy: ['price_lists', 'products'],
        editor: 'bob',
      });
      await releaseTableLockAs(signedIn.bob, 'price_lists', bobs.token);
      const release = await changes.waitFor(
        (change) => change.action === 'release' && change.table === 'price_lists',
      );
      expect(release.tables?.find((state) => state.name === 'currencies')).toMatchObject({
        status: 'locked',
        lockedBy: ['products'],
        editor: 'alice',
      });
    } finally {
      await changes.close();
    }
  });

  it('sends no states when too many tables changed to announce them, and still grants', async () => {
    const targets = Array.from({ length: 60 }, (_, i) => manyTableName(200 + i));
    await signedIn.database.prisma.$executeRawUnsafe(
      `CREATE TABLE ${MASTER_SCHEMA}.wide (id integer PRIMARY KEY, ${targets
        .map((target) => `${target}_id integer REFERENCES ${MASTER_SCHEMA}.${target} (id)`)
        .join(', ')})`,
    );
    await syncTableRegistry(signedIn.database.prisma, MASTER_SCHEMA);
    const changes = await bobsLockChanges();
    try {
      await acquireTableLockAs(signedIn.alice, 'wide');
      const acquired = await changes.waitFor((change) => change.table === 'wide');
      expect(acquired).toMatchObject({ action: 'acquire', editor: 'alice', tables: null });
      const locked = await pageOf(signedIn.bob, { search: 'many_002', status: 'locked' });
      expect(locked.total).toBe(60);
    } finally {
      await changes.close();
    }
  });
});
