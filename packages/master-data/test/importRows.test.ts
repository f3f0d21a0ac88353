import { forceReleaseTableLock } from '@tablelock/lock';
import {
  createTestDatabase,
  MASTER_SCHEMA,
  resetLockRegistry,
  type TestDatabase,
} from '@tablelock/test-support';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  applyImport,
  dryRunImport,
  IMPORT_LIMITS,
  type ImportFormat,
  readImportErrors,
  readImportRows,
} from '../src';
import { holdTableLock } from './support/holdTableLock';

let database: TestDatabase;
let token: string;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.prisma.$executeRawUnsafe('CREATE TABLE master.keyless_import (code text)');
  await database.prisma.tableLock.create({ data: { tableName: 'keyless_import' } });
  await database.prisma.$executeRawUnsafe(
    `CREATE TABLE master.ranges_import (
       id integer PRIMARY KEY, label text, low integer NOT NULL, high integer, CHECK (low <= high))`,
  );
  await database.prisma.$executeRawUnsafe(
    `INSERT INTO master.ranges_import VALUES (1, 'a', 1, 5), (2, NULL, 3, NULL)`,
  );
  await database.prisma.tableLock.create({ data: { tableName: 'ranges_import' } });
});
afterAll(() => database.close());
beforeEach(async () => {
  await resetLockRegistry(database.prisma);
  token = await lock('categories');
});

const lock = (tableName: string) => holdTableLock(database.prisma, tableName);

const csv = (...lines: string[]) => Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`);

const dryRun = (
  content: Buffer,
  { tableName = 'categories', format = 'csv' as ImportFormat, holder = 'alice' } = {},
) =>
  dryRunImport(database.prisma, {
    schema: MASTER_SCHEMA,
    tableName,
    holder,
    token,
    fileName: `${tableName}.${format}`,
    format,
    content,
  });

const apply = (id: string) =>
  applyImport(database.prisma, { schema: MASTER_SCHEMA, id, holder: 'alice', token });

const rowsOf = async (id: string) =>
  (await readImportRows(database.prisma, id, 'alice', { outcomes: [], offset: 0, limit: 1000 }))
    .rows;

const category = async (id: number) =>
  (
    await database.prisma.$queryRawUnsafe<Record<string, unknown>[]>(
      'SELECT id, name, parent_id, sort_order FROM master.categories WHERE id = $1',
      id,
    )
  )[0];

const saves = () =>
  database.prisma.lockEvent.count({ where: { tableName: 'categories', action: 'save' } });

describe('import dry run', () => {
  it('classifies each row as create, update with its changed cells, or unchanged', async () => {
    const report = await dryRun(
      csv(
        'id,name,parent_id,sort_order',
        '1,Food,,1',
        '2,Drinks,,02',
        '500,Garden,3,',
        '501,Shed,500,7',
      ),
    );
    const [food, drinks, garden, shed] = await rowsOf(report.id);
    expect(shed?.errors).toEqual([]);
    expect(report.counts).toEqual({ create: 2, update: 1, unchanged: 1, error: 0, total: 4 });
    expect(food).toMatchObject({ line: 2, outcome: 'unchanged', key: { id: '1' }, changed: [] });
    expect(drinks).toMatchObject({
      outcome: 'update',
      changed: ['name'],
      previous: { name: 'Beverages' },
      values: { name: 'Drinks', sort_order: '02' },
    });
    expect(garden).toMatchObject({ outcome: 'create', key: { id: '500' }, version: null });
    // A parent created by the same file is a parent.
    expect(shed).toMatchObject({ outcome: 'create', errors: [] });
    expect(await category(2)).toMatchObject({ name: 'Beverages' });
    expect(await category(500)).toBeUndefined();
  });

  it('reports type, NOT NULL, length, missing foreign key and repeated key errors by row', async () => {
    const report = await dryRun(
      csv(
        'id,name,parent_id,sort_order',
        'ten,A,,1',
        '600,,,1',
        '601,B,999,1',
        '1,Food,,1',
        '1,Food,,1',
      ),
    );
    expect(report.counts).toMatchObject({ error: 4, unchanged: 1 });
    const rows = await rowsOf(report.id);
    expect(rows.map((row) => row.errors.map((error) => [error.column, error.code]))).toEqual([
      [['id', 'INVALID_VALUE']],
      [['name', 'NOT_NULL']],
      [['parent_id', 'FOREIGN_KEY']],
      [],
      [[null, 'DUPLICATE_KEY']],
    ]);
    expect(rows[0]?.errors[0]?.message).toContain('invalid input syntax for type integer');
    expect(rows[4]?.errors[0]?.message).toContain('Row 5');

    token = await lock('currencies');
    const currencies = await dryRun(csv('code,name,minor_units', 'EURO,Euro,2'), {
      tableName: 'currencies',
    });
    const [euro] = await rowsOf(currencies.id);
    expect(euro?.errors).toEqual([
      expect.objectContaining({
        column: 'code',
        code: 'INVALID_VALUE',
        message: expect.stringContaining('too long'),
      }),
    ]);
  });

  it('refuses a new row that lacks a NOT NULL column the file does not have', async () => {
    await resetLockRegistry(database.prisma);
    token = await lock('products');
    const report = await dryRun(csv('id,name', '1,Renamed', '999999,New'), {
      tableName: 'products',
    });
    const [renamed, created] = await rowsOf(report.id);
    expect(renamed).toMatchObject({ outcome: 'update', changed: ['name'] });
    expect(created?.outcome).toBe('error');
    expect(created?.errors.map((error) => error.column)).toEqual(
      expect.arrayContaining(['sku', 'category_id', 'unit_price']),
    );
  });

  it('reads back the export\'s CSV: BOM, "" as empty text, empty as NULL, the apostrophe before formulas', async () => {
    const report = await dryRun(
      csv('id,name,parent_id,sort_order', `700,'=SUM(A1),,1`, '701,"",,1'),
    );
    const [formula, empty] = await rowsOf(report.id);
    expect(formula).toMatchObject({
      outcome: 'create',
      values: { name: '=SUM(A1)', parent_id: null },
    });
    expect(empty).toMatchObject({ outcome: 'create', values: { name: '' } });
  });

  it('tells a quoted empty field from an unquoted one wherever it stands, after quoted commas and quotes', async () => {
    const report = await dryRun(
      csv('id,sort_order,parent_id,name', '702,1,,""', '703,2,"","Tokyo, ""East"""', '704,3,,'),
    );
    const [lastQuoted, afterQuotes, lastUnquoted] = await rowsOf(report.id);
    expect(lastQuoted).toMatchObject({ values: { parent_id: null, name: '' } });
    // parent_id is an integer column: an empty string there is an error, not NULL.
    expect(afterQuotes).toMatchObject({ outcome: 'error', values: { name: 'Tokyo, "East"' } });
    expect(afterQuotes?.errors.map((error) => error.column)).toEqual(['parent_id']);
    expect(lastUnquoted).toMatchObject({
      outcome: 'error',
      values: { parent_id: null, name: null },
    });
  });

  it('reads XLSX: numbers, dates and booleans as Postgres reads them', async () => {
    token = await lock('currencies');
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('currencies');
    sheet.addRow(['code', 'name', 'minor_units', 'active']);
    sheet.addRow(['JPY', 'Japanese yen', 0, false]);
    sheet.addRow(['XAU', 'Gold', 4, true]);
    const content = Buffer.from(await workbook.xlsx.writeBuffer());
    const report = await dryRun(content, { tableName: 'currencies', format: 'xlsx' });
    const [yen, gold] = await rowsOf(report.id);
    expect(yen).toMatchObject({
      outcome: 'update',
      changed: ['active'],
      values: { active: 'false' },
    });
    expect(gold).toMatchObject({ outcome: 'create', values: { minor_units: '4' } });
  });

  it('refuses files that are not a table of this one, with coded errors', async () => {
    await expect(dryRun(csv('id,colour', '1,red'))).rejects.toMatchObject({
      code: 'IMPORT_BAD_FILE',
    });
    await expect(dryRun(csv('name', 'x'))).rejects.toMatchObject({
      code: 'IMPORT_BAD_FILE',
      message: expect.stringContaining('primary key'),
    });
    await expect(dryRun(csv('id,name', '1,"unclosed'))).rejects.toMatchObject({
      code: 'IMPORT_BAD_FILE',
    });
    await expect(dryRun(Buffer.from([0x69, 0x64, 0x0a, 0x82, 0xa0]))).rejects.toMatchObject({
      code: 'IMPORT_BAD_FILE',
      message: expect.stringContaining('UTF-8'),
    });
    await expect(dryRun(Buffer.from('not a zip'), { format: 'xlsx' })).rejects.toMatchObject({
      code: 'IMPORT_BAD_FILE',
    });
    token = await lock('keyless_import');
    await expect(dryRun(csv('code', 'a'), { tableName: 'keyless_import' })).rejects.toMatchObject({
      code: 'IMPORT_NO_PRIMARY_KEY',
    });
  });

  it('refuses more rows than allowed', async () => {
    const limits = { ...IMPORT_LIMITS, maxRows: 1000 };
    const lines = Array.from({ length: limits.maxRows + 1 }, (_, i) => `${i + 1000},n,,1`);
    await expect(
      dryRunImport(database.prisma, {
        schema: MASTER_SCHEMA,
        tableName: 'categories',
        holder: 'alice',
        token,
        fileName: 'categories.csv',
        format: 'csv',
        content: csv('id,name,parent_id,sort_order', ...lines),
        limits,
      }),
    ).rejects.toMatchObject({ code: 'IMPORT_TOO_LARGE' });
  });

  it('is for the holder of the lock only', async () => {
    await expect(dryRun(csv('id,name', '1,Food'), { holder: 'bob' })).rejects.toMatchObject({
      code: 'LOCK_LOST',
    });
  });

  it('checks a rule over a column the file lacks with the row now, and keeps emptied values as null', async () => {
    token = await lock('ranges_import');
    const report = await dryRun(csv('id,label,high', '1,a,0', '2,b,4', '3,c,9'), {
      tableName: 'ranges_import',
    });
    const [below, filled, created] = await rowsOf(report.id);
    expect(below).toMatchObject({ outcome: 'error', changed: ['high'], previous: { high: '5' } });
    expect(below?.errors.map(({ code, column }) => ({ code, column }))).toEqual([
      { code: 'CHECK', column: null },
    ]);
    expect(filled).toMatchObject({
      outcome: 'update',
      changed: ['label', 'high'],
      previous: { label: null, high: null },
      values: { id: '2', label: 'b', high: '4' },
      errors: [],
    });
    expect(created?.outcome).toBe('error');
    expect(created?.errors.map(({ code, message }) => ({ code, message }))).toEqual([
      { code: 'NOT_NULL', message: 'low may not be empty, and the file has no such column.' },
    ]);
  });

  it('keeps the erroneous rows for the errors file', async () => {
    const report = await dryRun(csv('id,name,parent_id,sort_order', '1,Food,,1', 'x,Bad,,1'));
    const errors = await readImportErrors(database.prisma, MASTER_SCHEMA, report.id, 'alice');
    expect(errors.rows.map((row) => row.values)).toEqual([
      { id: 'x', name: 'Bad', parent_id: null, sort_order: '1' },
    ]);
    await expect(
      readImportErrors(database.prisma, MASTER_SCHEMA, report.id, 'bob'),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});

describe('import apply', () => {
  it('writes creates and updates at once and records one save with the file as the reason', async () => {
    const before = await saves();
    const report = await dryRun(
      csv('id,name,parent_id,sort_order', '1,Food,,1', '2,Drinks,,2', '800,Garden,,'),
    );
    expect(await apply(report.id)).toMatchObject({
      applied: true,
      counts: { create: 1, update: 1, unchanged: 1, error: 0 },
    });
    expect(await category(2)).toMatchObject({ name: 'Drinks' });
    // The empty sort_order of a new row got the column's default.
    expect(await category(800)).toMatchObject({ name: 'Garden', sort_order: 0 });
    const [event] = await database.prisma.lockEvent.findMany({
      where: { tableName: 'categories', action: 'save' },
      orderBy: { id: 'desc' },
      take: 1,
    });
    expect(event).toMatchObject({
      reason: 'import categories.csv',
      rowsChanged: 2,
      token: BigInt(token),
    });
    expect(await saves()).toBe(before + 1);
    await expect(apply(report.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('applies a dry run once when two applies of it race', async () => {
    const before = await saves();
    const report = await dryRun(csv('id,name,parent_id,sort_order', '950,Raced,,1'));
    const results = await Promise.allSettled([apply(report.id), apply(report.id)]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = results.find((result) => result.status === 'rejected');
    expect(refused?.reason).toMatchObject({ code: 'NOT_FOUND' });
    expect(await category(950)).toMatchObject({ name: 'Raced' });
    expect(await saves()).toBe(before + 1);
  });

  it('refuses a dry run with errors', async () => {
    const report = await dryRun(csv('id,name,parent_id,sort_order', '3,Home,,3', 'x,Bad,,1'));
    await expect(apply(report.id)).rejects.toMatchObject({ code: 'IMPORT_HAS_ERRORS' });
    expect(await category(3)).toMatchObject({ name: 'Household' });
  });

  it('writes nothing when a row was changed by someone else since the dry run', async () => {
    const before = await saves();
    const report = await dryRun(
      csv('id,name,parent_id,sort_order', '4,Office,,4', '11,Rice and noodles,1,1', '900,New,,1'),
    );
    await database.prisma.$executeRawUnsafe(
      `UPDATE master.categories SET sort_order = 9 WHERE id = 11`,
    );
    await expect(apply(report.id)).rejects.toMatchObject({
      code: 'IMPORT_ROWS_CHANGED',
      details: { rows: [{ line: 3, key: { id: '11' } }] },
    });
    expect(await category(4)).toMatchObject({ name: 'Stationery' });
    expect(await category(900)).toBeUndefined();
    expect(await saves()).toBe(before);
  });

  it('writes nothing when a row it would create was created meanwhile', async () => {
    const report = await dryRun(csv('id,name,parent_id,sort_order', '4,Office,,4', '901,New,,1'));
    await database.prisma.$executeRawUnsafe(
      `INSERT INTO master.categories (id, name) VALUES (901, 'Theirs')`,
    );
    await expect(apply(report.id)).rejects.toMatchObject({ code: 'IMPORT_ROWS_CHANGED' });
    expect(await category(4)).toMatchObject({ name: 'Stationery' });
    expect(await category(901)).toMatchObject({ name: 'Theirs' });
  });

  it('writes nothing once the lock is lost, even if it is taken again', async () => {
    const report = await dryRun(csv('id,name,parent_id,sort_order', '4,Office,,4'));
    await forceReleaseTableLock(database.prisma, {
      tableName: 'categories',
      actor: 'admin',
      reason: 'test',
    });
    await expect(apply(report.id)).rejects.toMatchObject({ code: 'LOCK_LOST' });
    token = await lock('categories');
    await expect(apply(report.id)).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(await category(4)).toMatchObject({ name: 'Stationery' });
  });

  it('finds a CHECK the row breaks in the dry run, and writes nothing', async () => {
    token = await lock('currencies');
    const report = await dryRun(csv('code,name,minor_units', 'JPY,Yen,0', 'XAG,Silver,9'), {
      tableName: 'currencies',
    });
    const [, silver] = await rowsOf(report.id);
    expect(silver?.errors).toEqual([
      expect.objectContaining({
        column: 'minor_units',
        code: 'CHECK',
        message: 'minor_units must be between 0 and 4.',
      }),
    ]);
    await expect(apply(report.id)).rejects.toMatchObject({ code: 'IMPORT_HAS_ERRORS' });
    const [yen] = await database.prisma.$queryRawUnsafe<{ name: string }[]>(
      `SELECT name FROM master.currencies WHERE code = 'JPY'`,
    );
    expect(yen?.name).toBe('Japanese yen');
  });
});
