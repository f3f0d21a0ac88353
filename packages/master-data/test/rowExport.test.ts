import { createTestDatabase, MASTER_SCHEMA, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRowExport, type RowValues, type RowView } from '../src';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

async function exportAll(table: string, view: RowView) {
  const rowExport = await openRowExport(database.prisma, MASTER_SCHEMA, table, view);
  const batches: RowValues[][] = [];
  await rowExport.forEachBatch(async (rows) => {
    batches.push(rows);
  });
  return batches;
}

describe('openRowExport', () => {
  it('reads every row of a filtered, sorted view in its order, in bounded batches', async () => {
    const batches = await exportAll('products', {
      sort: [{ column: 'unit_price', direction: 'desc' }],
      filter: [{ column: 'name', operator: 'contains', value: 'green tea' }],
    });
    const expected = await database.prisma.$queryRaw<{ id: number }[]>`
      SELECT id FROM master.products WHERE name LIKE '%green tea%' ORDER BY unit_price DESC, id`;
    expect(batches.flat().map((row) => Number(row.id))).toEqual(expected.map(({ id }) => id));
    expect(expected).toHaveLength(10_000);
    expect(Math.max(...batches.map((batch) => batch.length))).toBe(1000);
  });

  it('reads from one snapshot: a row saved during the export is not half in it', async () => {
    const [before] = await database.prisma.$queryRaw<{ name: string }[]>`
      SELECT name FROM master.products WHERE id = 99999`;
    let saved = false;
    const names: string[] = [];
    const rowExport = await openRowExport(database.prisma, MASTER_SCHEMA, 'products', {
      sort: [],
      filter: [{ column: 'id', operator: 'greaterThan', value: '97000' }],
    });
    await rowExport.forEachBatch(async (rows) => {
      names.push(...rows.filter((row) => row.id === '99999').map((row) => row.name ?? ''));
      if (saved) return;
      saved = true;
      await database.prisma
        .$executeRaw`UPDATE master.products SET name = 'renamed' WHERE id = 99999`;
    });
    expect(names).toEqual([before?.name]);
    expect(before?.name).not.toBe('renamed');
  });

  it('refuses a bad table, column or value before it reads a row', async () => {
    await expect(exportAll('no_such_table', { sort: [], filter: [] })).rejects.toMatchObject({
      code: 'TABLE_NOT_FOUND',
    });
    await expect(
      exportAll('products', { sort: [{ column: 'nope', direction: 'asc' }], filter: [] }),
    ).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
    const batches: RowValues[][] = [];
    const cheap = await openRowExport(database.prisma, MASTER_SCHEMA, 'products', {
      sort: [],
      filter: [{ column: 'unit_price', operator: 'lessThan', value: 'cheap' }],
    });
    await expect(cheap.forEachBatch(async (rows) => void batches.push(rows))).rejects.toMatchObject(
      {
        code: 'BAD_USER_INPUT',
      },
    );
    expect(batches).toEqual([]);
  });
});
