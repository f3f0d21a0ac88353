import {
  createTestDatabase,
  MASTER_SCHEMA,
  resetLockRegistry,
  type TestDatabase,
} from '@tablelock/test-support';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { applyImport, dryRunImport, MasterDataError } from '../src';
import { holdTableLock } from './support/holdTableLock';

let database: TestDatabase;
let token: string;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());
beforeEach(async () => {
  await resetLockRegistry(database.prisma);
  token = await holdTableLock(database.prisma, 'regions');
});

const csv = (...lines: string[]) => Buffer.from(`${lines.join('\r\n')}\r\n`);

const regionCodes = () =>
  database.prisma.$queryRaw<{ id: number; code: string }[]>`
    SELECT id, code FROM master.regions WHERE id IN (10, 11, 12) ORDER BY id`;

async function refusalOf(run: Promise<unknown>): Promise<MasterDataError> {
  try {
    await run;
  } catch (error) {
    if (error instanceof MasterDataError) return error;
    throw error;
  }
  throw new Error('The import was applied.');
}

describe('an import the database refuses as a whole (IMPORT_REJECTED)', () => {
  it('names the rows it refuses, with why, and writes nothing', async () => {
    const before = await regionCodes();
    // Kanto and Kansai swap codes: each row alone is fine, but UNIQUE (code) is checked row
    // by row as the statement goes, so the first one written already collides.
    const report = await dryRunImport(database.prisma, {
      schema: MASTER_SCHEMA,
      tableName: 'regions',
      holder: 'alice',
      token,
      fileName: 'regions.csv',
      format: 'csv',
      content: csv(
        'id,code,name,parent_id',
        '10,JP-KANSAI,Kanto,1',
        '11,JP-KANTO,Kansai,1',
        '12,JP-KYUSHU,Kyushu (south),1',
      ),
    });
    expect(report.counts).toMatchObject({ update: 3, error: 0 });

    const refusal = await refusalOf(
      applyImport(database.prisma, {
        schema: MASTER_SCHEMA,
        id: report.id,
        holder: 'alice',
        token,
      }),
    );
    expect(refusal.code).toBe('IMPORT_REJECTED');
    expect(refusal.message).toContain('file row 2: JP-KANSAI is already used by region 11');
    expect(refusal.details).toMatchObject({
      rows: [
        {
          line: 2,
          key: { id: '10' },
          code: 'UNIQUE',
          column: 'code',
          details: { kind: 'DUPLICATE', column: 'code', value: 'JP-KANSAI', row: '11' },
        },
        {
          line: 3,
          key: { id: '11' },
          code: 'UNIQUE',
          column: 'code',
          details: { kind: 'DUPLICATE', column: 'code', value: 'JP-KANTO', row: '10' },
        },
      ],
    });
    expect(await regionCodes()).toEqual(before);
  });
});
