import { releaseTableLock } from '@tablelock/lock';
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
  token = await holdTableLock(database.prisma, 'categories');
});

const save = (changes: RowChanges, holder = 'alice', tableName = 'categories') =>
  saveRows(database.prisma, { schema: MASTER_SCHEMA, tableName, holder, token, changes });

async function row(id: string) {
  const page = await readRows(database.prisma, MASTER_SCHEMA, 'categories', {
    offset: 0,
    limit: 1,
    sort: [],
    filter: [{ column: 'id', operator: 'equals', value: id }],
  });
  return page.rows[0];
}

describe('saveRows', () => {
  it('records each save in the audit history with the rows changed and the token', async () => {
    await save({ inserts: [{ values: { id: '940', name: 'Audited' } }] });
    const [event] = await database.prisma.lockEvent.findMany({
      where: { tableName: 'categories', action: 'save' },
      orderBy: { id: 'desc' },
      take: 1,
    });
    expect(event).toMatchObject({ actor: 'alice', rowsChanged: 1, token: BigInt(token) });
  });

  it('applies inserts, updates and deletes together', async () => {
    await save({ inserts: [{ values: { id: '900', name: 'Garden', sort_order: '9' } }] });
    const before = await row('42');
    const garden = await row('900');
    const result = await save({
      inserts: [{ values: { id: '901', name: 'Toys', parent_id: '3' } }],
      updates: [
        { key: { id: '42' }, version: before?.version ?? '', values: { name: 'Pens & markers' } },
      ],
      deletes: [{ key: { id: '900' }, version: garden?.version ?? '' }],
    });
    expect(result).toEqual({
      saved: true,
      inserted: 1,
      updated: 1,
      deleted: 1,
      rowErrors: [],
      updatedVersions: [{ index: 0, version: (await row('42'))?.version }],
    });
    expect((await row('42'))?.values.name).toBe('Pens & markers');
    expect((await row('901'))?.values).toMatchObject({ name: 'Toys', sort_order: '0' });
    expect(await row('900')).toBeUndefined();
  });

  it("gives each updated row's new version, which its next change may name at once", async () => {
    const first = await save({
      updates: [
        { key: { id: '41' }, version: (await row('41'))?.version ?? '', values: { name: 'Pads' } },
      ],
    });
    const version = first.updatedVersions[0]?.version ?? '';
    const again = await save({
      updates: [{ key: { id: '41' }, version, values: { name: 'Paper' } }],
    });
    expect(again).toMatchObject({ saved: true, updated: 1, rowErrors: [] });
    expect((await row('41'))?.values.name).toBe('Paper');
  });

  it('is all or nothing: one bad row fails the save, every failure is reported by row', async () => {
    const food = await row('1');
    const result = await save({
      inserts: [
        { values: { id: '910', name: 'Fine' } },
        { values: { id: '911', name: null } },
        { values: { id: '912', name: 'Bad order', sort_order: 'first' } },
        { values: { id: '1', name: 'Duplicate key' } },
        { values: { id: '913', name: 'Orphan', parent_id: '7777' } },
      ],
      updates: [{ key: { id: '1' }, version: food?.version ?? '', values: { name: 'Foods' } }],
    });
    expect(result.saved).toBe(false);
    expect(
      result.rowErrors.map(({ change, index, code, column }) => ({ change, index, code, column })),
    ).toEqual([
      { change: 'insert', index: 1, code: 'NOT_NULL', column: 'name' },
      { change: 'insert', index: 2, code: 'INVALID_VALUE', column: 'sort_order' },
      { change: 'insert', index: 3, code: 'UNIQUE', column: 'id' },
      { change: 'insert', index: 4, code: 'FOREIGN_KEY', column: 'parent_id' },
    ]);
    expect(await row('910')).toBeUndefined();
    expect((await row('1'))?.values.name).toBe('Food');
  });

  it('never overwrites a row changed since it was read: ROW_CONFLICT', async () => {
    const read = await row('2');
    await database.prisma.$executeRawUnsafe(
      `UPDATE master.categories SET name = 'Drinks' WHERE id = 2`,
    );
    const result = await save({
      updates: [{ key: { id: '2' }, version: read?.version ?? '', values: { name: 'Beverages!' } }],
    });
    expect(result.saved).toBe(false);
    expect(result.rowErrors).toMatchObject([{ change: 'update', index: 0, code: 'ROW_CONFLICT' }]);
    expect((await row('2'))?.values.name).toBe('Drinks');
  });

  it('reports a delete of a row deleted meanwhile as ROW_CONFLICT', async () => {
    await save({ inserts: [{ values: { id: '920', name: 'Short-lived' } }] });
    const read = await row('920');
    await database.prisma.$executeRawUnsafe('DELETE FROM master.categories WHERE id = 920');
    const result = await save({ deletes: [{ key: { id: '920' }, version: read?.version ?? '' }] });
    expect(result.rowErrors).toMatchObject([{ change: 'delete', code: 'ROW_CONFLICT' }]);
  });

  it('is LOCK_LOST for anyone but the holder, and after the lock is gone', async () => {
    await expect(
      save({ inserts: [{ values: { id: '930', name: 'x' } }] }, 'bob'),
    ).rejects.toMatchObject({
      code: 'LOCK_LOST',
    });
    await expect(
      save({ inserts: [{ values: { id: '931', name: 'x' } }] }, 'alice', 'regions'),
    ).rejects.toMatchObject({ code: 'LOCK_LOST' });
    await releaseTableLock(database.prisma, { tableName: 'categories', editor: 'alice', token });
    await expect(save({ inserts: [{ values: { id: '932', name: 'x' } }] })).rejects.toMatchObject({
      code: 'LOCK_LOST',
      message: expect.stringContaining('was released'),
    });
    for (const id of ['930', '931', '932']) expect(await row(id)).toBeUndefined();
  });

  it('refuses malformed requests before touching anything', async () => {
    await expect(save({ inserts: [{ values: { nope: 'x' } }] })).rejects.toMatchObject({
      code: 'BAD_USER_INPUT',
    });
    await expect(
      save({ updates: [{ key: { name: 'Food' }, version: '1', values: { name: 'x' } }] }),
    ).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
    await expect(
      save({ deletes: [{ key: { id: '1' }, version: "1' OR '1'='1" }] }),
    ).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
    await expect(
      save({ inserts: Array.from({ length: 1001 }, (_, i) => ({ values: { id: String(i) } })) }),
    ).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
  });

  it("refuses changing an existing row's primary key, and changes nothing", async () => {
    const food = await row('1');
    await expect(
      save({
        updates: [{ key: { id: '1' }, version: food?.version ?? '', values: { id: '1001' } }],
      }),
    ).rejects.toMatchObject({ code: 'BAD_USER_INPUT', message: expect.stringContaining('id') });
    expect(await row('1')).toEqual(food);
    expect(await row('1001')).toBeUndefined();
  });

  it('accepts an update that repeats the row key unchanged', async () => {
    const food = await row('1');
    const result = await save({
      updates: [
        { key: { id: '1' }, version: food?.version ?? '', values: { id: '1', name: 'Food!' } },
      ],
    });
    expect(result).toMatchObject({ saved: true, updated: 1 });
  });
});
