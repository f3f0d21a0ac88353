import {
  createTestDatabase,
  MASTER_SCHEMA,
  resetLockRegistry,
  type TestDatabase,
} from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dryRunImport, readImportRows } from '../src';
import { holdTableLock } from './support/holdTableLock';

let database: TestDatabase;
let token: string;

beforeAll(async () => {
  database = await createTestDatabase();
  await resetLockRegistry(database.prisma);
  token = await holdTableLock(database.prisma, 'categories', 600);
});
afterAll(() => database.close());

const file = Buffer.from('Code,Label,Notes,Order\r\n1,Food,ignore me,1\r\n800,Snacks,x,5\r\n');
const dryRun = (columnMapping?: Record<string, string | null>) =>
  dryRunImport(database.prisma, {
    schema: MASTER_SCHEMA,
    tableName: 'categories',
    holder: 'alice',
    token,
    fileName: 'categories.csv',
    format: 'csv',
    content: file,
    ...(columnMapping ? { columnMapping } : {}),
  });

describe('an import whose header differs from the table', () => {
  it('is refused with the file columns and the ones the table lacks, for a mapping step', async () => {
    await expect(dryRun()).rejects.toMatchObject({
      code: 'IMPORT_BAD_FILE',
      details: {
        fileColumns: ['Code', 'Label', 'Notes', 'Order'],
        unknownColumns: ['Code', 'Label', 'Notes', 'Order'],
      },
    });
  });

  it('is read through a mapping: file columns to table columns, or ignored', async () => {
    const report = await dryRun({ Code: 'id', Label: 'name', Notes: null, Order: 'sort_order' });
    expect(report.columns).toEqual(['id', 'name', 'sort_order']);
    expect(report.counts).toMatchObject({ unchanged: 1, create: 1, error: 0 });
    const { rows } = await readImportRows(database.prisma, report.id, 'alice', {
      outcomes: ['create'],
      offset: 0,
      limit: 10,
    });
    expect(rows[0]?.values).toEqual({ id: '800', name: 'Snacks', sort_order: '5' });
  });

  it('refuses a mapping to a column the table does not have, or to one column twice', async () => {
    await expect(
      dryRun({ Code: 'id', Label: 'nope', Notes: null, Order: 'sort_order' }),
    ).rejects.toMatchObject({ code: 'IMPORT_BAD_FILE' });
    await expect(
      dryRun({ Code: 'id', Label: 'name', Notes: 'name', Order: 'sort_order' }),
    ).rejects.toMatchObject({ code: 'IMPORT_BAD_FILE', message: expect.stringContaining('name') });
  });
});
