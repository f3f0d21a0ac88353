import { createTestDatabase, MASTER_SCHEMA, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RowQuery, readRows } from '../src';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const query = (overrides: Partial<RowQuery>): RowQuery => ({
  offset: 0,
  limit: 100,
  sort: [],
  filter: [],
  ...overrides,
});
const read = (table: string, overrides: Partial<RowQuery> = {}) =>
  readRows(database.prisma, MASTER_SCHEMA, table, query(overrides));

describe('readRows', () => {
  it('describes the columns from the catalog', async () => {
    const page = await read('products', { limit: 1 });
    const column = (name: string) => page.table.columns.find((c) => c.name === name);
    expect(column('id')).toMatchObject({ kind: 'integer', primaryKey: true, nullable: false });
    expect(column('unit_price')).toMatchObject({ kind: 'decimal', dataType: 'numeric(12,2)' });
    expect(column('currency_code')).toMatchObject({
      kind: 'text',
      maxLength: 3,
      references: 'currencies',
    });
    expect(column('weight_kg')?.nullable).toBe(true);
    expect(column('launched_on')?.kind).toBe('date');
    expect(column('discontinued')).toMatchObject({ kind: 'boolean', hasDefault: true });
    expect(page.table.primaryKey.map((c) => c.name)).toEqual(['id']);
  });

  it('pages through all 100,000 products in a stable order, values as exact text', async () => {
    const first = await read('products', { limit: 3 });
    expect(first.total).toBe(100_000);
    expect(first.rows.map((row) => row.key)).toEqual([{ id: '1' }, { id: '2' }, { id: '3' }]);
    const last = await read('products', { offset: 99_999, limit: 5 });
    expect(last.rows.map((row) => row.key)).toEqual([{ id: '100000' }]);
    expect(first.rows[0]?.values.unit_price).toMatch(/^\d+\.\d{2}$/);
    expect(first.rows[0]?.version).toMatch(/^\d+$/);
  });

  it('reads a table whose primary key has two columns, by offset from either end', async () => {
    const first = await read('stock_levels', { limit: 2 });
    expect(first.table.primaryKey.map((column) => column.name)).toEqual([
      'warehouse_id',
      'product_id',
    ]);
    expect(first.rows).toHaveLength(2);
    expect(Object.keys(first.rows[0]?.key ?? {}).sort()).toEqual(['product_id', 'warehouse_id']);
    const last = await read('stock_levels', { offset: (first.total ?? 0) - 1, limit: 2 });
    expect(last.rows).toHaveLength(1);
  });

  it('sorts on the server, with the primary key breaking ties', async () => {
    const page = await read('products', {
      limit: 50,
      sort: [{ column: 'category_id', direction: 'desc' }],
    });
    const keys = page.rows.map((row) => [Number(row.values.category_id), Number(row.key.id)]);
    const sorted = [...keys].sort((a, b) => (b[0] ?? 0) - (a[0] ?? 0) || (a[1] ?? 0) - (b[1] ?? 0));
    expect(keys).toEqual(sorted);
  });

  it('filters by comparison (typed), text match and null', async () => {
    const cheap = await read('products', {
      filter: [{ column: 'unit_price', operator: 'lessThan', value: '1.10' }],
      limit: 500,
    });
    expect(cheap.total).toBeGreaterThan(0);
    expect(cheap.rows.every((row) => Number(row.values.unit_price) < 1.1)).toBe(true);
    const tea = await read('products', {
      filter: [{ column: 'name', operator: 'contains', value: 'GREEN TEA' }],
      limit: 1,
    });
    expect(tea.total).toBe(10_000);
    const noWeight = await read('products', {
      filter: [{ column: 'weight_kg', operator: 'isNull' }],
    });
    expect(noWeight.rows.every((row) => row.values.weight_kg === null)).toBe(true);
    expect(noWeight.total).toBe(11_111);
  });

  it('treats % and _ in a text filter literally', async () => {
    const page = await read('products', {
      filter: [{ column: 'name', operator: 'contains', value: '%' }],
    });
    expect(page.total).toBe(0);
  });

  it('refuses unknown columns and values that do not fit the column type', async () => {
    await expect(
      read('products', { sort: [{ column: 'id; DROP TABLE x', direction: 'asc' }] }),
    ).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
    await expect(
      read('products', { filter: [{ column: 'unit_price', operator: 'equals', value: 'cheap' }] }),
    ).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
    await expect(read('products', { limit: 100_000 })).rejects.toMatchObject({
      code: 'BAD_USER_INPUT',
    });
    await expect(read('no_such_table')).rejects.toMatchObject({ code: 'TABLE_NOT_FOUND' });
  });

  it('quotes identifiers: a table and column with awkward names reads fine', async () => {
    await database.prisma.$executeRawUnsafe(
      'CREATE TABLE master."Odd ""Name""" (id int PRIMARY KEY, "select" text)',
    );
    await database.prisma.$executeRawUnsafe(`INSERT INTO master."Odd ""Name""" VALUES (1, 'x')`);
    await database.prisma.tableLock.create({ data: { tableName: 'Odd "Name"' } });
    const page = await read('Odd "Name"');
    expect(page.rows).toEqual([
      { key: { id: '1' }, version: expect.any(String), values: { id: '1', select: 'x' } },
    ]);
  });
});
