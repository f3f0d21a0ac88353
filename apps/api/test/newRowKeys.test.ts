import { createTestDatabase, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './generated';
import { execute, startTestApi, type TestApi, type TestClient } from './support/testApi';

let database: TestDatabase;
let api: TestApi;
let alice: TestClient;

const PROBES = [
  'CREATE TABLE master.numbered_codes (code varchar(8) PRIMARY KEY, name text NOT NULL UNIQUE)',
  "INSERT INTO master.numbered_codes VALUES ('SKU-0009', 'a'), ('SKU-0042', 'b'), ('SKU-099', 'c'), ('plain', 'd')",
  'CREATE TABLE master.full_codes (code varchar(4) PRIMARY KEY)',
  "INSERT INTO master.full_codes VALUES ('A998')",
  'CREATE TABLE master.identity_keys (id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY, note text)',
  'CREATE TABLE master.small_keys (id smallint PRIMARY KEY, tag text, tags text[], ' +
    'shared text, lower_tag text, UNIQUE (tag, shared))',
  'CREATE UNIQUE INDEX small_keys_lower_tag ON master.small_keys (lower(lower_tag))',
  'CREATE UNIQUE INDEX small_keys_tags ON master.small_keys (tags) WHERE id > 0',
  'INSERT INTO master.small_keys VALUES (32766)',
  'CREATE TABLE master.empty_keys (id bigint PRIMARY KEY)',
];

beforeAll(async () => {
  database = await createTestDatabase();
  for (const statement of PROBES) await database.prisma.$executeRawUnsafe(statement);
  for (const tableName of [
    'numbered_codes',
    'full_codes',
    'identity_keys',
    'small_keys',
    'empty_keys',
  ]) {
    await database.prisma.tableLock.create({ data: { tableName } });
  }
  api = await startTestApi(database);
  alice = await api.loginAs('alice');
});
afterAll(async () => {
  await api.stop();
  await database.close();
});

const newRowKeysQuery = graphql(`
  query NewRowKeys($table: String!, $count: Int!) {
    newRowKeys(table: $table, count: $count)
  }
`);

const uniqueColumnsQuery = graphql(`
  query UniqueColumns($table: String!) {
    rows(table: $table, limit: 1) {
      columns {
        name
        unique
      }
    }
  }
`);

async function keys(table: string, count: number): Promise<string[] | undefined> {
  const answer = await execute(alice, newRowKeysQuery, { table, count });
  expect(answer.errors).toBeUndefined();
  return answer.data?.newRowKeys;
}

describe('newRowKeys', () => {
  it('counts on from the largest integer key', async () => {
    const [largest] = await database.prisma.$queryRaw<{ id: number }[]>`
      SELECT max(id) AS id FROM master.products`;
    const next = (largest?.id ?? 0) + 1;
    expect(await keys('products', 3)).toEqual([String(next), String(next + 1), String(next + 2)]);
  });

  it('starts an empty table at 1', async () => {
    expect(await keys('empty_keys', 2)).toEqual(['1', '2']);
  });

  it('counts a text key on from its greatest numbered value in natural order, keeping the zeros', async () => {
    // SKU-099 is greater than SKU-0042 as a number, and greater than SKU-0009 though shorter.
    expect(await keys('numbered_codes', 2)).toEqual(['SKU-100', 'SKU-101']);
  });

  it('counts on from a key added since', async () => {
    await database.prisma.$executeRawUnsafe(
      "INSERT INTO master.numbered_codes VALUES ('SKU-101', 'e')",
    );
    expect(await keys('numbered_codes', 2)).toEqual(['SKU-102', 'SKU-103']);
  });

  it('suggests nothing the column cannot hold', async () => {
    expect(await keys('full_codes', 1)).toEqual(['A999']);
    expect(await keys('full_codes', 2)).toEqual([]);
    expect(await keys('small_keys', 1)).toEqual(['32767']);
    expect(await keys('small_keys', 2)).toEqual([]);
  });

  it('suggests nothing for a key the database fills, a composite key or a key of letters', async () => {
    expect(await keys('identity_keys', 1)).toEqual([]);
    expect(await keys('price_list_items', 1)).toEqual([]);
    expect(await keys('currencies', 1)).toEqual([]);
  });

  it('refuses a count outside 1-100 and an unknown table, with a code', async () => {
    for (const count of [0, 101]) {
      const answer = await execute(alice, newRowKeysQuery, { table: 'products', count });
      expect(answer.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    }
    const unknown = await execute(alice, newRowKeysQuery, { table: 'no_such_table', count: 1 });
    expect(unknown.errors?.[0]?.extensions?.code).toBe('TABLE_NOT_FOUND');
  });

  it('is for editors: a viewer is refused', async () => {
    const viewer = await api.loginAs('carol');
    const answer = await execute(viewer, newRowKeysQuery, { table: 'products', count: 1 });
    expect(answer.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});

describe('Column.unique', () => {
  it('marks a column with a UNIQUE index of its own, and a one-column primary key', async () => {
    const answer = await execute(alice, uniqueColumnsQuery, { table: 'products' });
    const unique = answer.data?.rows.columns.filter((column) => column.unique).map((c) => c.name);
    expect(unique).toEqual(['id', 'sku']);
  });

  it('leaves out columns unique only with others, by an expression or for some rows', async () => {
    const answer = await execute(alice, uniqueColumnsQuery, { table: 'small_keys' });
    const unique = answer.data?.rows.columns.filter((column) => column.unique).map((c) => c.name);
    expect(unique).toEqual(['id']);
    const composite = await execute(alice, uniqueColumnsQuery, { table: 'price_list_items' });
    expect(composite.data?.rows.columns.some((column) => column.unique)).toBe(false);
  });
});
