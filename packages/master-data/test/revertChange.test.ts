import { acquireTableLock, grantedOrConflict, releaseTableLock } from '@tablelock/lock';
import {
  createTestDatabase,
  MASTER_SCHEMA,
  resetLockRegistry,
  type TestDatabase,
} from '@tablelock/test-support';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type RevertRequest,
  type RowChanges,
  readRows,
  readTableChanges,
  revertChange,
  saveRows,
  syncWriteGuards,
} from '../src';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  await syncWriteGuards(database.prisma, MASTER_SCHEMA, 'RECORD');
});
afterAll(() => database.close());
beforeEach(() => resetLockRegistry(database.prisma));

/** Takes the lock of `tableName` as `editor`; gives its token. */
async function lock(editor: string, tableName = 'categories') {
  const grant = grantedOrConflict(
    await acquireTableLock(database.prisma, { tableName, editor, leaseSeconds: 60 }),
  );
  return grant.fencingToken;
}

async function unlock(editor: string, token: string, tableName = 'categories') {
  await releaseTableLock(database.prisma, { tableName, editor, token });
}

/** Saves `changes` as `editor` under a lock of their own; gives the change's id. */
async function saveAs(editor: string, changes: RowChanges, tableName = 'categories') {
  const token = await lock(editor, tableName);
  const result = await saveRows(database.prisma, {
    schema: MASTER_SCHEMA,
    tableName,
    holder: editor,
    token,
    changes,
  });
  expect(result.rowErrors).toEqual([]);
  await unlock(editor, token, tableName);
  const {
    changes: [latest],
  } = await readTableChanges(database.prisma, tableName, { first: 1 });
  return latest?.id ?? '';
}

async function row(id: string, tableName = 'categories') {
  const page = await readRows(database.prisma, MASTER_SCHEMA, tableName, {
    offset: 0,
    limit: 1,
    sort: [],
    filter: [{ column: 'id', operator: 'equals', value: id }],
  });
  return page.rows[0];
}

const update = async (id: string, values: Record<string, string | null>) => ({
  key: { id },
  version: (await row(id))?.version ?? '',
  values,
});

const revert = (request: Omit<RevertRequest, 'schema' | 'tableName'> & { tableName?: string }) =>
  revertChange(database.prisma, { schema: MASTER_SCHEMA, tableName: 'categories', ...request });

const historySize = async () =>
  (
    await database.prisma.$queryRaw<{ count: number }[]>`
    SELECT count(*)::int AS count FROM tablelock.row_change`
  )[0]?.count;

describe('revertChange', () => {
  it('restores the rows of a save but the one someone else changed later, which it reports', async () => {
    await saveAs('alice', {
      inserts: [
        { values: { id: '700', name: 'One' } },
        { values: { id: '701', name: 'Two' } },
        { values: { id: '702', name: 'Three' } },
      ],
    });
    const change = await saveAs('alice', {
      updates: [
        await update('700', { name: 'One!' }),
        await update('701', { name: 'Two!' }),
        await update('702', { name: 'Three!' }),
      ],
    });
    const later = await saveAs('bob', { updates: [await update('701', { name: 'Bob was here' })] });

    const token = await lock('alice');
    const dryRun = await revert({
      changeId: change,
      holder: 'alice',
      token,
      rows: null,
      dryRun: true,
    });
    expect(dryRun).toMatchObject({ dryRun: true, reverted: false, rowErrors: [] });
    expect(dryRun.rows.map((step) => [step.key.id, step.action])).toEqual([
      ['700', 'update'],
      ['702', 'update'],
    ]);
    expect(dryRun.conflicts).toMatchObject([
      { key: { id: '701' }, reason: 'changedLater', later: { id: later, actor: 'bob' } },
    ]);
    expect((await row('700'))?.values.name).toBe('One!');

    const result = await revert({
      changeId: change,
      holder: 'alice',
      token,
      rows: null,
      dryRun: false,
    });
    expect(result).toMatchObject({ reverted: true, dryRun: false, rowErrors: [] });
    expect(result.conflicts).toHaveLength(1);
    expect((await row('700'))?.values.name).toBe('One');
    expect((await row('701'))?.values.name).toBe('Bob was here');
    expect((await row('702'))?.values.name).toBe('Three');
    const {
      changes: [recorded],
    } = await readTableChanges(database.prisma, 'categories', { first: 1 });
    expect(recorded).toMatchObject({
      id: result.revertChangeId,
      kind: 'revert',
      actor: 'alice',
      revertsChangeId: change,
      rowsUpdated: 2,
    });
  });

  it('overwrites a conflicting row only when it is picked', async () => {
    await saveAs('alice', { inserts: [{ values: { id: '710', name: 'Before' } }] });
    const change = await saveAs('alice', { updates: [await update('710', { name: 'After' })] });
    await saveAs('bob', { updates: [await update('710', { name: 'Later' })] });
    const token = await lock('alice');
    const picked = await revert({
      changeId: change,
      holder: 'alice',
      token,
      rows: [{ id: '710' }],
      dryRun: false,
    });
    expect(picked).toMatchObject({ reverted: true, conflicts: [] });
    expect((await row('710'))?.values.name).toBe('Before');
  });

  it('brings back a parent and its child deleted together, parent first, keys and link intact', async () => {
    await saveAs('alice', {
      inserts: [
        { values: { id: '720', name: 'Parent' } },
        { values: { id: '721', name: 'Child', parent_id: '720' } },
      ],
    });
    const child = await row('721');
    const parent = await row('720');
    const deletion = await saveAs('alice', {
      deletes: [
        { key: { id: '721' }, version: child?.version ?? '' },
        { key: { id: '720' }, version: parent?.version ?? '' },
      ],
    });
    expect(await row('720')).toBeUndefined();

    const token = await lock('alice');
    const result = await revert({
      changeId: deletion,
      holder: 'alice',
      token,
      rows: null,
      dryRun: false,
    });
    expect(result).toMatchObject({ reverted: true, rowErrors: [], conflicts: [] });
    expect(result.rows.map((step) => [step.key.id, step.action])).toEqual([
      ['720', 'insert'],
      ['721', 'insert'],
    ]);
    expect((await row('720'))?.values).toMatchObject({ id: '720', name: 'Parent' });
    expect((await row('721'))?.values).toMatchObject({ id: '721', parent_id: '720' });
  });

  it('checks foreign keys before writing: a row still referenced is reported and nothing is written', async () => {
    const creation = await saveAs('alice', {
      inserts: [
        { values: { id: '730', name: 'Kept' } },
        { values: { id: '731', name: 'Referenced' } },
      ],
    });
    await saveAs('bob', { inserts: [{ values: { id: '732', name: 'Points', parent_id: '731' } }] });
    const token = await lock('alice');
    const before = await historySize();
    for (const dryRun of [true, false]) {
      const result = await revert({
        changeId: creation,
        holder: 'alice',
        token,
        rows: null,
        dryRun,
      });
      expect(result).toMatchObject({ reverted: false, dryRun: true });
      // Said for people, as a save's refusals are, with the facts for other languages.
      expect(result.rowErrors).toMatchObject([
        {
          key: { id: '731' },
          code: 'FOREIGN_KEY',
          message: expect.stringMatching(/is still used by 1 /),
          details: { kind: 'IN_USE', count: 1 },
        },
      ]);
    }
    expect(await row('730')).toBeDefined();
    expect(await row('731')).toBeDefined();
    expect(await historySize()).toBe(before);
  });

  it('refuses an unknown change, another table’s change and a revert without the lock, writing nothing', async () => {
    await saveAs('alice', { inserts: [{ values: { id: '740', name: 'Mine' } }] });
    const change = await saveAs('alice', { updates: [await update('740', { name: 'Changed' })] });
    const other = await saveAs(
      'alice',
      {
        inserts: [
          {
            values: {
              id: '741',
              name: 'Elsewhere',
              region_id: '1',
              currency_code: 'JPY',
              contract_start: '2026-01-01',
            },
          },
        ],
      },
      'suppliers',
    );
    const token = await lock('alice');
    const before = await historySize();
    const attempt = (request: Partial<RevertRequest>) =>
      revert({ changeId: change, holder: 'alice', token, rows: null, dryRun: false, ...request });

    await expect(attempt({ changeId: '999999999' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(attempt({ changeId: 'x' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(attempt({ changeId: other })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(attempt({ holder: 'bob' })).rejects.toMatchObject({ code: 'LOCK_LOST' });
    await unlock('alice', token);
    await expect(attempt({})).rejects.toMatchObject({ code: 'LOCK_LOST' });
    await expect(attempt({ rows: [{ name: 'x' }] })).rejects.toMatchObject({
      code: 'BAD_USER_INPUT',
    });
    expect(await historySize()).toBe(before);
    expect((await row('740'))?.values.name).toBe('Changed');
  });
});
