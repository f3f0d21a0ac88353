import {
  createTestDatabase,
  MASTER_SCHEMA,
  resetLockRegistry,
  type TestDatabase,
} from '@tablelock/test-support';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RowChanges, readRows, saveRows } from '../src';
import { holdTableLock } from './support/holdTableLock';

let database: TestDatabase;
const tokens = new Map<string, string>();

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());
beforeEach(async () => {
  await resetLockRegistry(database.prisma);
  for (const tableName of ['products', 'price_lists']) {
    tokens.set(tableName, await holdTableLock(database.prisma, tableName));
  }
});

const save = (changes: RowChanges, tableName = 'products') =>
  saveRows(database.prisma, {
    schema: MASTER_SCHEMA,
    tableName,
    holder: 'alice',
    token: tokens.get(tableName) ?? '',
    changes,
  });

async function versionOf(tableName: string, id: string) {
  const page = await readRows(database.prisma, MASTER_SCHEMA, tableName, {
    offset: 0,
    limit: 1,
    sort: [],
    filter: [{ column: 'id', operator: 'equals', value: id }],
  });
  return page.rows[0]?.version ?? '';
}

const newProduct = (values: Record<string, string | null>) => ({
  values: {
    id: '900001',
    sku: 'SKU-NEW-1',
    name: 'New',
    category_id: '11',
    supplier_id: '1',
    unit_price: '1.00',
    currency_code: 'JPY',
    launched_on: '2026-01-01',
    ...values,
  },
});

describe('save errors say what is wrong, where, and carry the facts to say it in any language', () => {
  it('names the missing referenced row: ZZZ is not a currency (currencies.code)', async () => {
    const result = await save({ inserts: [newProduct({ currency_code: 'ZZZ' })] });
    expect(result.rowErrors).toEqual([
      {
        change: 'insert',
        index: 0,
        code: 'FOREIGN_KEY',
        column: 'currency_code',
        message: 'ZZZ is not a currency (currencies.code).',
        details: expect.objectContaining({
          kind: 'MISSING_REFERENCE',
          column: 'currency_code',
          value: 'ZZZ',
          table: 'currencies',
          targetColumn: 'code',
        }),
      },
    ]);
  });

  it('names the row that already has a unique value', async () => {
    const result = await save({ inserts: [newProduct({ sku: 'SKU-000001' })] });
    expect(result.rowErrors).toEqual([
      expect.objectContaining({
        code: 'UNIQUE',
        column: 'sku',
        message: 'SKU-000001 is already used by product 1.',
        details: expect.objectContaining({
          kind: 'DUPLICATE',
          column: 'sku',
          value: 'SKU-000001',
          table: 'products',
          row: '1',
        }),
      }),
    ]);
  });

  it('marks the column of a CHECK and says a simple comparison in words', async () => {
    const version = await versionOf('products', '5');
    const result = await save({
      updates: [{ key: { id: '5' }, version, values: { unit_price: '-1' } }],
    });
    expect(result.rowErrors).toEqual([
      expect.objectContaining({
        code: 'CHECK',
        column: 'unit_price',
        message: 'unit_price must be at least 0.',
        details: expect.objectContaining({
          kind: 'CHECK',
          column: 'unit_price',
          value: '-1',
          comparison: '>=',
          bound: '0',
        }),
      }),
    ]);
  });

  it('quotes a CHECK rule that is not a simple comparison', async () => {
    const version = await versionOf('price_lists', '1');
    const result = await save(
      { updates: [{ key: { id: '1' }, version, values: { valid_to: '2000-01-01' } }] },
      'price_lists',
    );
    expect(result.rowErrors).toEqual([
      expect.objectContaining({
        code: 'CHECK',
        column: null,
        message: 'The row breaks the rule (valid_to IS NULL) OR (valid_to >= valid_from).',
        details: expect.objectContaining({
          kind: 'CHECK',
          rule: '(valid_to IS NULL) OR (valid_to >= valid_from)',
        }),
      }),
    ]);
  });

  it('says which rows still use a row that is deleted', async () => {
    const version = await versionOf('products', '1');
    const result = await save({ deletes: [{ key: { id: '1' }, version }] });
    expect(result.rowErrors).toEqual([
      expect.objectContaining({
        code: 'FOREIGN_KEY',
        column: null,
        message: 'product 1 is still used by 3 price_list_items.',
        details: expect.objectContaining({
          kind: 'IN_USE',
          table: 'price_list_items',
          row: '1',
          count: 3,
        }),
      }),
    ]);
  });

  it('names the column of an empty required cell and of a value of the wrong type', async () => {
    const result = await save({
      inserts: [newProduct({ name: null }), newProduct({ id: '900002', unit_price: 'ten' })],
    });
    expect(result.rowErrors).toEqual([
      expect.objectContaining({
        code: 'NOT_NULL',
        column: 'name',
        message: 'name may not be empty.',
        details: expect.objectContaining({ kind: 'NOT_NULL', column: 'name' }),
      }),
      expect.objectContaining({
        code: 'INVALID_VALUE',
        column: 'unit_price',
        message: 'unit_price: invalid input syntax for type numeric: "ten".',
        details: expect.objectContaining({ kind: 'INVALID_VALUE', value: 'ten' }),
      }),
    ]);
  });
});
