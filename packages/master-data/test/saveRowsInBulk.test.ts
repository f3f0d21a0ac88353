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
let token: string;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());
beforeEach(async () => {
  await resetLockRegistry(database.prisma);
  token = await holdTableLock(database.prisma, 'customers');
});

const save = (changes: RowChanges) =>
  saveRows(database.prisma, {
    schema: MASTER_SCHEMA,
    tableName: 'customers',
    holder: 'alice',
    token,
    changes,
  });

async function customers(fromId: number, count: number) {
  const page = await readRows(database.prisma, MASTER_SCHEMA, 'customers', {
    offset: 0,
    limit: count,
    sort: [{ column: 'id', direction: 'asc' }],
    filter: [{ column: 'id', operator: 'greaterThanOrEqual', value: String(fromId) }],
  });
  return page.rows;
}

describe('saveRows in bulk', () => {
  it('writes a clean save of hundreds of rows as a few statements: one version for every row', async () => {
    const rows = await customers(1, 300);
    const result = await save({
      // Two groups of columns: a statement each.
      updates: rows.map((row, index) => ({
        key: row.key,
        version: row.version,
        values: {
          note: `bulk ${index}`,
          ...(index % 2 === 0 ? {} : { credit_limit: String(index) }),
        },
      })),
    });
    expect(result).toMatchObject({ saved: true, updated: 300, rowErrors: [] });
    expect(result.updatedVersions.map((entry) => entry.index)).toEqual(rows.map((_, i) => i));
    // Row by row, each row is written under a savepoint of its own, and so has a version
    // (xmin, the subtransaction's id) of its own; one statement per group shares one.
    expect(new Set(result.updatedVersions.map((entry) => entry.version)).size).toBe(1);
    const after = await customers(1, 300);
    expect(after.map((row) => row.values.note)).toEqual(rows.map((_, i) => `bulk ${i}`));
    expect(after[1]?.values.credit_limit).toBe('1.00');
    expect(after[0]?.values.credit_limit).toBe(rows[0]?.values.credit_limit);
  });

  it('keeps text that looks like SQL or array syntax, and NULL apart from the word', async () => {
    const [row] = await customers(1, 1);
    const awkward = `a,"b"}{NULL\\' ; DROP TABLE x`;
    const inserted = await save({
      inserts: [
        {
          values: {
            id: '970001',
            name: awkward,
            region_id: '10',
            registered_on: '2026-01-01',
            note: 'NULL',
          },
        },
        {
          values: {
            id: '970002',
            name: 'Null note',
            region_id: '10',
            registered_on: '2026-01-01',
            note: null,
          },
        },
      ],
      updates: [{ key: row?.key ?? {}, version: row?.version ?? '', values: { note: null } }],
    });
    expect(inserted).toMatchObject({ saved: true, inserted: 2, updated: 1 });
    const [first, second] = await customers(970001, 2);
    expect(first?.values).toMatchObject({ name: awkward, note: 'NULL' });
    expect(second?.values.note).toBeNull();
    expect((await customers(1, 1))[0]?.values.note).toBeNull();
  });

  it('names the one conflicting row among hundreds of clean ones, and writes none of them', async () => {
    const rows = await customers(1, 200);
    const stale = rows[150];
    await database.prisma
      .$executeRaw`UPDATE master.customers SET note = 'meanwhile' WHERE id = ${Number(stale?.values.id)}`;
    const result = await save({
      updates: rows.map((row) => ({
        key: row.key,
        version: row.version,
        values: { note: 'lost?' },
      })),
    });
    expect(result.saved).toBe(false);
    expect(result.rowErrors).toMatchObject([
      { change: 'update', index: 150, code: 'ROW_CONFLICT' },
    ]);
    const after = await customers(1, 200);
    expect(after.filter((row) => row.values.note === 'lost?')).toEqual([]);
  });

  it('refuses two changes of one row in one save as a conflict of the second', async () => {
    const [row] = await customers(1, 1);
    const change = { key: row?.key ?? {}, version: row?.version ?? '' };
    const result = await save({
      updates: [
        { ...change, values: { note: 'first' } },
        { ...change, values: { note: 'second' } },
      ],
    });
    expect(result.rowErrors).toMatchObject([{ index: 1, code: 'ROW_CONFLICT' }]);
    expect((await customers(1, 1))[0]?.values.note).toBe(row?.values.note);
  });

  it('names every refused row of a bulk save: a bad value, a missing region, a duplicate key', async () => {
    const result = await save({
      inserts: [
        { values: { id: '980001', name: 'Fine', region_id: '10', registered_on: '2026-01-01' } },
        { values: { id: '980002', name: 'Bad date', region_id: '10', registered_on: 'soon' } },
        {
          values: {
            id: '980003',
            name: 'No region',
            region_id: '99999',
            registered_on: '2026-01-01',
          },
        },
        { values: { id: '1', name: 'Taken key', region_id: '10', registered_on: '2026-01-01' } },
      ],
    });
    expect(result.saved).toBe(false);
    expect(result.rowErrors.map((error) => [error.index, error.code])).toEqual([
      [1, 'INVALID_VALUE'],
      [2, 'FOREIGN_KEY'],
      [3, 'UNIQUE'],
    ]);
    expect(await customers(980001, 1)).toEqual([]);
  });
});
