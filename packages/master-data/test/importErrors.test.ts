import { acquireTableLock, grantedOrConflict } from '@tablelock/lock';
import {
  createTestDatabase,
  MASTER_SCHEMA,
  resetLockRegistry,
  type TestDatabase,
} from '@tablelock/test-support';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dryRunImport, readImportRows } from '../src';

let database: TestDatabase;
let token: string;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());
beforeEach(async () => {
  await resetLockRegistry(database.prisma);
  const grant = grantedOrConflict(
    await acquireTableLock(database.prisma, {
      tableName: 'products',
      editor: 'alice',
      leaseSeconds: 60,
    }),
  );
  token = grant.fencingToken;
});

const HEADER = 'id,sku,name,category_id,supplier_id,unit_price,currency_code,launched_on';
const csv = (...lines: string[]) => Buffer.from(`${[HEADER, ...lines].join('\r\n')}\r\n`);

async function errorsByLine(content: Buffer) {
  const report = await dryRunImport(database.prisma, {
    schema: MASTER_SCHEMA,
    tableName: 'products',
    holder: 'alice',
    token,
    fileName: 'products.csv',
    format: 'csv',
    content,
  });
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
});
