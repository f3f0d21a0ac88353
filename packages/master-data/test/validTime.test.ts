import { acquireTableLock, grantedOrConflict } from '@tablelock/lock';
import {
  createTestDatabase,
  MASTER_SCHEMA,
  resetLockRegistry,
  type TestDatabase,
} from '@tablelock/test-support';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  applyImport,
  dryRunImport,
  type RowChanges,
  readImportRows,
  readReferenceOptions,
  readRows,
  saveRows,
} from '../src';
import { readMasterTable } from '../src/tableColumns';
import { holdTableLock } from './support/holdTableLock';

// The demo's valid-time tables: product_prices has PRIMARY KEY (product_id, valid WITHOUT
// OVERLAPS); product_price_promotions a PERIOD foreign key to it.
let database: TestDatabase;
let token = '';

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());
beforeEach(async () => {
  await resetLockRegistry(database.prisma);
  token = await holdTableLock(database.prisma, 'product_prices');
});

const save = (changes: RowChanges) =>
  saveRows(database.prisma, {
    schema: MASTER_SCHEMA,
    tableName: 'product_prices',
    holder: 'alice',
    token,
    changes,
  });

const pricesOf = async (productId: string) =>
  (
    await readRows(database.prisma, MASTER_SCHEMA, 'product_prices', {
      offset: 0,
      limit: 10,
      sort: [{ column: 'valid', direction: 'asc' }],
      filter: [{ column: 'product_id', operator: 'equals', value: productId }],
    })
  ).rows;

const newPrice = (valid: string) => ({
  values: { product_id: '11', valid, price: '9.99', currency_code: 'JPY' },
});

describe('a table with a WITHOUT OVERLAPS primary key', () => {
  it('has the period in its key, rows named by it, and pages by cursor over it', async () => {
    const table = await readMasterTable(database.prisma, MASTER_SCHEMA, 'product_prices');
    expect(table.primaryKey.map((column) => [column.name, column.kind])).toEqual([
      ['product_id', 'integer'],
      ['valid', 'period'],
    ]);
    expect((await pricesOf('11')).map((row) => row.key)).toEqual([
      { product_id: '11', valid: '[2025-01-01,2025-07-01)' },
      { product_id: '11', valid: '[2025-07-01,2026-01-01)' },
      { product_id: '11', valid: '[2026-01-01,2026-07-01)' },
    ]);
    // Every fourth product's last price has no end.
    expect((await pricesOf('12')).map((row) => row.values.valid)).toEqual([
      '[2025-01-01,2025-07-01)',
      '[2025-07-01,)',
    ]);
    const first = await readRows(database.prisma, MASTER_SCHEMA, 'product_prices', {
      offset: 0,
      limit: 3,
      sort: [],
      filter: [],
    });
    const next = await readRows(database.prisma, MASTER_SCHEMA, 'product_prices', {
      offset: 0,
      limit: 3,
      sort: [],
      filter: [],
      after: first.endCursor,
    });
    expect(next.rows.map((row) => row.key)).toEqual([
      { product_id: '2', valid: '[2025-01-01,2025-07-01)' },
      { product_id: '2', valid: '[2025-07-01,2026-01-01)' },
      { product_id: '2', valid: '[2026-01-01,2026-07-01)' },
    ]);
  });

  it('takes part in locking: editing it locks products and currencies', async () => {
    await resetLockRegistry(database.prisma);
    const grant = grantedOrConflict(
      await acquireTableLock(database.prisma, {
        tableName: 'product_prices',
        editor: 'alice',
        leaseSeconds: 60,
      }),
    );
    expect([...grant.lockedTables].sort()).toEqual(['currencies', 'products']);
    token = grant.fencingToken;
  });

  it('refuses an overlapping period, naming the row whose period it overlaps; writes nothing', async () => {
    const result = await save({ inserts: [newPrice('[2025-12-01,2026-03-01)')] });
    expect(result.rowErrors).toEqual([
      {
        change: 'insert',
        index: 0,
        code: 'OVERLAPPING_PERIOD',
        column: 'valid',
        message: 'product 11 already has a product_price for 2025-07-01 – 2025-12-31.',
        details: {
          kind: 'OVERLAPPING_PERIOD',
          column: 'valid',
          value: '[2025-12-01,2026-03-01)',
          table: 'product_prices',
          row: '11',
          period: '[2025-07-01,2026-01-01)',
          constraint: 'product_prices_pkey',
        },
      },
    ]);
    expect(await pricesOf('11')).toHaveLength(3);
  });

  it('refuses the second of two new rows of one save whose periods overlap each other', async () => {
    const result = await save({
      inserts: [newPrice('[2026-07-01,2026-10-01)'), newPrice('[2026-09-01,2026-12-01)')],
    });
    expect(result.rowErrors).toEqual([
      expect.objectContaining({
        index: 1,
        code: 'OVERLAPPING_PERIOD',
        message: 'product 11 already has a product_price for 2026-07-01 – 2026-09-30.',
      }),
    ]);
    expect(await pricesOf('11')).toHaveLength(3);
  });

  it('saves a period that starts where the last one ends', async () => {
    const result = await save({ inserts: [newPrice('[2026-07-01,2026-10-01)')] });
    expect(result.rowErrors).toEqual([]);
    expect((await pricesOf('11')).map((row) => row.values.valid)).toEqual([
      '[2025-01-01,2025-07-01)',
      '[2025-07-01,2026-01-01)',
      '[2026-01-01,2026-07-01)',
      '[2026-07-01,2026-10-01)',
    ]);
  });
});

describe('an import into a table with a WITHOUT OVERLAPS key', () => {
  const importCsv = async (tableName: string, lines: string[]) => {
    const report = await dryRunImport(database.prisma, {
      schema: MASTER_SCHEMA,
      tableName,
      holder: 'alice',
      token,
      fileName: `${tableName}.csv`,
      format: 'csv',
      content: Buffer.from(`${lines.join('\r\n')}\r\n`),
    });
    return {
      report,
      apply: () =>
        applyImport(database.prisma, {
          schema: MASTER_SCHEMA,
          id: report.id,
          holder: 'alice',
          token,
        }),
    };
  };

  it('is refused at apply for an overlapping period, naming the file row and the period it overlaps', async () => {
    const { report, apply } = await importCsv('product_prices', [
      'product_id,valid,price,currency_code',
      '13,"[2026-07-01,2026-10-01)",1.00,JPY',
      '13,"[2026-06-01,2026-08-01)",1.00,JPY',
    ]);
    expect(report.counts).toMatchObject({ create: 2, error: 0 });
    await expect(apply()).rejects.toMatchObject({
      code: 'IMPORT_REJECTED',
      details: {
        rows: [
          expect.objectContaining({
            line: 3,
            code: 'OVERLAPPING_PERIOD',
            message: 'product 13 already has a product_price for 2026-01-01 – 2026-06-30.',
          }),
        ],
      },
    });
    expect(await pricesOf('13')).toHaveLength(3);
  });

  it('takes a promotion whose period several price periods cover together, and refuses one they do not', async () => {
    await resetLockRegistry(database.prisma);
    token = await holdTableLock(database.prisma, 'product_price_promotions');
    // Product 11's prices run to 2026-06-30, product 3's to 2025-12-31.
    const { report } = await importCsv('product_price_promotions', [
      'product_id,valid,name,discount_percent',
      '11,"[2025-06-01,2026-02-01)",Across three,5',
      '3,"[2025-06-01,2026-02-01)",Past the end,5',
    ]);
    expect(report.counts).toMatchObject({ create: 1, error: 1 });
    const { rows } = await readImportRows(database.prisma, report.id, 'alice', {
      outcomes: [],
      offset: 0,
      limit: 10,
    });
    expect(rows.map((row) => row.errors.map((error) => error.code))).toEqual([[], ['FOREIGN_KEY']]);
  });
});

describe('a PERIOD foreign key', () => {
  it('gives value help by the row its scalar column names: products', async () => {
    const page = await readReferenceOptions(
      database.prisma,
      MASTER_SCHEMA,
      'product_price_promotions',
      'product_id',
      { search: '12', first: 1 },
    );
    expect(page.target.table.name).toBe('products');
    expect(page.options[0]?.key).toBe('12');
  });

  it('makes promotions lock product_prices, not products through it', async () => {
    await resetLockRegistry(database.prisma);
    const grant = grantedOrConflict(
      await acquireTableLock(database.prisma, {
        tableName: 'product_price_promotions',
        editor: 'alice',
        leaseSeconds: 60,
      }),
    );
    expect(grant.lockedTables).toEqual(['product_prices']);
  });
});
