import { Prisma } from '@tablelock/db';
import { referenceSearchStatements } from '@tablelock/master-data';
import { createTestDatabase, MASTER_SCHEMA, type TestDatabase } from '@tablelock/test-support';
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

const optionsQuery = graphql(`
  query ReferenceOptions(
    $table: String!
    $column: String!
    $search: String
    $first: Int
    $after: String
  ) {
    referenceOptions(
      table: $table
      column: $column
      search: $search
      first: $first
      after: $after
    ) {
      table
      keyColumn
      labelColumn
      options {
        key
        label
      }
      endCursor
    }
  }
`);

const labelsQuery = graphql(`
  query RowsWithReferenceLabels($table: String!, $filter: [RowFilter!]) {
    rows(table: $table, filter: $filter, limit: 3) {
      rows {
        values
      }
      referenceLabels {
        column
        labels {
          key
          label
        }
      }
    }
  }
`);

describe('referenceOptions', () => {
  it('lists the referenced rows by key with the first text column as their label', async () => {
    const answer = await execute(carol, optionsQuery, {
      table: 'products',
      column: 'category_id',
      first: 3,
    });
    expect(answer.errors).toBeUndefined();
    const page = answer.data?.referenceOptions;
    expect(page).toMatchObject({ table: 'categories', keyColumn: 'id', labelColumn: 'name' });
    expect(page?.options.map((option) => option.key)).toEqual(['1', '2', '3']);
    const next = await execute(carol, optionsQuery, {
      table: 'products',
      column: 'category_id',
      first: 3,
      after: page?.endCursor,
    });
    expect(Number(next.data?.referenceOptions.options[0]?.key)).toBeGreaterThan(3);
  });

  it('searches 100,000 products by label prefix, whatever the case, and by exact key', async () => {
    const first = await execute(carol, optionsQuery, {
      table: 'price_list_items',
      column: 'product_id',
      search: 'sku-00012',
      first: 5,
    });
    expect(first.errors).toBeUndefined();
    const page = first.data?.referenceOptions;
    expect(page?.labelColumn).toBe('sku');
    expect(page?.options.map((option) => option.label)).toEqual([
      'SKU-000120',
      'SKU-000121',
      'SKU-000122',
      'SKU-000123',
      'SKU-000124',
    ]);
    const second = await execute(carol, optionsQuery, {
      table: 'price_list_items',
      column: 'product_id',
      search: 'sku-00012',
      first: 5,
      after: page?.endCursor,
    });
    expect(second.data?.referenceOptions.options.map((option) => option.label)).toEqual([
      'SKU-000125',
      'SKU-000126',
      'SKU-000127',
      'SKU-000128',
      'SKU-000129',
    ]);
    expect(second.data?.referenceOptions.endCursor).toBeNull();
    const byKey = await execute(carol, optionsQuery, {
      table: 'price_list_items',
      column: 'product_id',
      search: '4242',
      first: 5,
    });
    expect(byKey.data?.referenceOptions.options[0]).toEqual({ key: '4242', label: 'SKU-004242' });
  });

  // Issue 42: "Sakura" found nothing (every name starts with "Supplier"), "Supplier Sak" listed
  // 102 before 12, and prefix search was of little use for Japanese company names.
  it('finds a word anywhere in the label, in any case and width, numbers in numeric order', async () => {
    const labelsFor = async (search: string, after?: string | null) => {
      const answer = await execute(carol, optionsQuery, {
        table: 'products',
        column: 'supplier_id',
        search,
        first: 3,
        after,
      });
      expect(answer.errors).toBeUndefined();
      return answer.data?.referenceOptions;
    };
    for (const search of ['sakura', 'SAKURA', 'ｓａｋｕｒａ', ' Sakura ']) {
      expect(
        (await labelsFor(search))?.options.map((option) => option.label),
        search,
      ).toEqual(['Supplier Sakura 6', 'Supplier Sakura 12', 'Supplier Sakura 18']);
    }
    const first = await labelsFor('supplier sakura 1');
    expect(first?.options.map((option) => option.label)).toEqual([
      'Supplier Sakura 12',
      'Supplier Sakura 18',
      'Supplier Sakura 102',
    ]);
    const next = await labelsFor('supplier sakura 1', first?.endCursor);
    expect(next?.options.map((option) => option.label)).toEqual([
      'Supplier Sakura 108',
      'Supplier Sakura 114',
      'Supplier Sakura 120',
    ]);
  });

  it('finds Japanese names whichever kana and width are typed', async () => {
    await database.prisma.$executeRawUnsafe(
      `UPDATE ${MASTER_SCHEMA}.suppliers SET name = CASE id WHEN 1 THEN '株式会社サクラ商事' WHEN 2 THEN 'さくら物産' END WHERE id IN (1, 2)`,
    );
    for (const search of ['ｻｸﾗ', 'さくら', 'サクラ']) {
      const answer = await execute(carol, optionsQuery, {
        table: 'products',
        column: 'supplier_id',
        search,
      });
      expect(answer.errors).toBeUndefined();
      expect(
        answer.data?.referenceOptions.options.map((option) => option.label),
        search,
      ).toEqual(['さくら物産', '株式会社サクラ商事']);
    }
  });

  it('takes % and _ in a search as themselves', async () => {
    for (const search of ['%', '_', 'Sakura%', 'sakura_1']) {
      const answer = await execute(carol, optionsQuery, {
        table: 'products',
        column: 'supplier_id',
        search,
      });
      expect(answer.errors).toBeUndefined();
      expect(answer.data?.referenceOptions.options, search).toEqual([]);
    }
  });

  it('answers a search from an index, not by reading the whole table', async () => {
    for (const search of ['sku-0001', '4242']) {
      const statements = await referenceSearchStatements(
        database.prisma,
        MASTER_SCHEMA,
        'price_list_items',
        'product_id',
        { search, first: 20, after: null },
      );
      expect(statements).toHaveLength(2);
      for (const statement of statements) {
        const [plan] = await database.prisma.$queryRaw<{ 'QUERY PLAN': unknown }[]>(
          Prisma.sql`EXPLAIN (FORMAT JSON) ${statement}`,
        );
        const text = JSON.stringify(plan?.['QUERY PLAN']);
        expect(text, search).toContain('"Relation Name":"products"');
        expect(text, search).not.toContain('Seq Scan');
        expect(text, search).toMatch(/Index (Only )?Scan/);
      }
    }
  });

  it('refuses a column that is no foreign key, and too many options at once', async () => {
    const notKey = await execute(carol, optionsQuery, { table: 'products', column: 'name' });
    expect(notKey.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(notKey.errors?.[0]?.message).toContain('name');
    const tooMany = await execute(carol, optionsQuery, {
      table: 'products',
      column: 'category_id',
      first: 1000,
    });
    expect(tooMany.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });
});

describe('rows with referenceLabels', () => {
  it('gives the label of each foreign key on the page', async () => {
    const answer = await execute(carol, labelsQuery, {
      table: 'products',
      filter: [{ column: 'id', operator: 'equals', value: '9' }],
    });
    expect(answer.errors).toBeUndefined();
    const values = answer.data?.rows.rows[0]?.values as Record<string, string>;
    const labels = Object.fromEntries(
      (answer.data?.rows.referenceLabels ?? []).map(({ column, labels }) => [column, labels]),
    );
    expect(Object.keys(labels).sort()).toEqual(['category_id', 'currency_code', 'supplier_id']);
    expect(labels.currency_code).toEqual([{ key: values.currency_code, label: 'Euro' }]);
    expect(labels.category_id?.[0]?.key).toBe(values.category_id);
    expect(labels.category_id?.[0]?.label).toEqual(expect.any(String));
  });

  it('is empty, without a query, for a table without foreign keys', async () => {
    const answer = await execute(carol, labelsQuery, { table: 'currencies' });
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.rows.referenceLabels).toEqual([]);
  });
});
