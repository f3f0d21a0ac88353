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
  MasterDataError,
  readImportErrors,
  readImportRows,
} from '../src';
import { holdTableLock } from './support/holdTableLock';

let database: TestDatabase;
let token: string;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());
beforeEach(async () => {
  await resetLockRegistry(database.prisma);
  token = await holdTableLock(database.prisma, 'products');
});

const HEADER = 'id,sku,name,category_id,supplier_id,unit_price,currency_code,launched_on';
const csv = (...lines: string[]) => Buffer.from(`${[HEADER, ...lines].join('\r\n')}\r\n`);

const dryRun = (content: Buffer) =>
  dryRunImport(database.prisma, {
    schema: MASTER_SCHEMA,
    tableName: 'products',
    holder: 'alice',
    token,
    fileName: 'products.csv',
    format: 'csv',
    content,
  });

async function errorsByLine(content: Buffer) {
  const report = await dryRun(content);
  const { rows } = await readImportRows(database.prisma, report.id, 'alice', {
    outcomes: [],
    offset: 0,
    limit: 100,
  });
  return rows.map((row) =>
    row.errors.map(({ column, code, message }) => ({ column, code, message })),
  );
}

describe('the import dry run finds what the database would refuse, by row', () => {
  it('reports an empty required cell once', async () => {
    expect(await errorsByLine(csv('900001,SKU-N1,,11,1,1.00,JPY,2026-01-01'))).toEqual([
      [{ column: 'name', code: 'NOT_NULL', message: 'name may not be empty.' }],
    ]);
  });

  it('reports an emptied required cell of an existing row once', async () => {
    expect(await errorsByLine(csv('1,SKU-000001,,11,1,1.00,JPY,2026-01-01'))).toEqual([
      [{ column: 'name', code: 'NOT_NULL', message: 'name may not be empty.' }],
    ]);
  });

  it('finds a value used twice in the file, naming the first row', async () => {
    expect(
      await errorsByLine(
        csv('900001,SKU-N1,A,11,1,1.00,JPY,2026-01-01', '900002,SKU-N1,B,11,1,1.00,JPY,2026-01-01'),
      ),
    ).toEqual([
      [],
      [{ column: 'sku', code: 'UNIQUE', message: 'SKU-N1 is also in row 2 of the file.' }],
    ]);
  });

  it('finds a value another row of the table already has', async () => {
    expect(await errorsByLine(csv('900001,SKU-000001,A,11,1,1.00,JPY,2026-01-01'))).toEqual([
      [{ column: 'sku', code: 'UNIQUE', message: 'SKU-000001 is already used by product 1.' }],
    ]);
  });

  it('lets a row keep its own value, and take one another row of the file gives up', async () => {
    expect(
      await errorsByLine(
        csv(
          '1,SKU-000001,A,11,1,1.00,JPY,2026-01-01',
          '2,SKU-000003,B,11,1,1.00,JPY,2026-01-01',
          '3,SKU-X3,C,11,1,1.00,JPY,2026-01-01',
        ),
      ),
    ).toEqual([[], [], []]);
  });

  it('finds CHECK violations and says the rule in words', async () => {
    expect(await errorsByLine(csv('900001,SKU-N1,A,11,1,-1,JPY,2026-01-01'))).toEqual([
      [{ column: 'unit_price', code: 'CHECK', message: 'unit_price must be at least 0.' }],
    ]);
  });

  it('applies the valid rows when asked, and keeps the rest for errors.csv', async () => {
    const report = await dryRun(
      csv(
        '900101,SKU-V1,Valid,11,1,1.00,JPY,2026-01-01',
        '900102,SKU-V2,Bad,11,1,-5,JPY,2026-01-01',
      ),
    );
    const request = { schema: MASTER_SCHEMA, id: report.id, holder: 'alice', token };
    await expect(applyImport(database.prisma, request)).rejects.toMatchObject({
      code: 'IMPORT_HAS_ERRORS',
    });
    const applied = await applyImport(database.prisma, { ...request, skipRowsWithErrors: true });
    expect(applied).toMatchObject({ applied: true, counts: { create: 1, error: 1 } });
    const stored = await database.prisma.$queryRawUnsafe<{ id: number }[]>(
      'SELECT id FROM master.products WHERE id IN (900101, 900102) ORDER BY id',
    );
    expect(stored).toEqual([{ id: 900101 }]);
    const rest = await readImportErrors(database.prisma, MASTER_SCHEMA, report.id, 'alice');
    expect(rest.rows.map((row) => row.values.sku)).toEqual(['SKU-V2']);
    expect(rest.report.counts).toMatchObject({ create: 0, error: 1, total: 1 });
  });

  it('carries the facts of each error, to say it in another language', async () => {
    const report = await dryRun(
      csv('900201,SKU-000001,A,11,1,-1,ZZZ,2026-01-01', '900202,SKU-F1,,11,1,1.00,JPY,2026-01-01'),
    );
    const { rows } = await readImportRows(database.prisma, report.id, 'alice', {
      outcomes: [],
      offset: 0,
      limit: 10,
    });
    expect(rows.map((row) => row.errors.map((error) => error.details))).toEqual([
      [
        { kind: 'DUPLICATE', column: 'sku', value: 'SKU-000001', table: 'products', row: '1' },
        { kind: 'CHECK', column: 'unit_price', comparison: '>=', bound: '0' },
        {
          kind: 'MISSING_REFERENCE',
          column: 'currency_code',
          value: 'ZZZ',
          table: 'currencies',
          targetColumn: 'code',
        },
      ],
      [{ kind: 'NOT_NULL', column: 'name' }],
    ]);
  });
});

describe('an import the database refuses as a whole (IMPORT_REJECTED)', () => {
  const skus = () =>
    database.prisma.$queryRaw<{ id: number; sku: string }[]>`
      SELECT id, sku FROM master.products WHERE id IN (1, 2, 3) ORDER BY id`;

  it('names the rows it refuses, with why, and writes nothing', async () => {
    const before = await skus();
    // Products 1 and 2 swap SKUs: each row alone is fine, but UNIQUE (sku) is checked row by
    // row as the statement goes, so the first one written already collides.
    const report = await dryRun(
      Buffer.from(
        'id,sku,name\r\n1,SKU-000002,Swapped\r\n2,SKU-000001,Swapped\r\n3,SKU-000003,Kept\r\n',
      ),
    );
    expect(report.counts).toMatchObject({ update: 3, error: 0 });

    const refusal = await applyImport(database.prisma, {
      schema: MASTER_SCHEMA,
      id: report.id,
      holder: 'alice',
      token,
    }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(MasterDataError);
    expect(refusal).toMatchObject({
      code: 'IMPORT_REJECTED',
      message: expect.stringContaining('In file row 2: SKU-000002 is already used by product 2.'),
      details: {
        rows: [
          {
            line: 2,
            key: { id: '1' },
            code: 'UNIQUE',
            column: 'sku',
            details: { kind: 'DUPLICATE', column: 'sku', value: 'SKU-000002', row: '2' },
          },
          {
            line: 3,
            key: { id: '2' },
            code: 'UNIQUE',
            column: 'sku',
            details: { kind: 'DUPLICATE', column: 'sku', value: 'SKU-000001', row: '1' },
          },
        ],
      },
    });
    expect(await skus()).toEqual(before);
  });
});
