import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireTableLock, grantedOrConflict } from '@tablelock/lock';
import {
  createTestDatabase,
  handmadeXlsx,
  MASTER_SCHEMA,
  resetLockRegistry,
  type TestDatabase,
} from '@tablelock/test-support';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import XLSX from 'xlsx';
import { dryRunImport, IMPORT_LIMITS, type ImportLimits, readImportRows } from '../src';

// Temp files go to a folder of this file's own, so that it can be seen to stay empty.
const tempFolder = mkdtempSync(join(tmpdir(), 'import-limits-'));
// Restored after the file: later files in the same worker need a folder that exists.
const tmpdirBefore = process.env.TMPDIR;
process.env.TMPDIR = tempFolder;

let database: TestDatabase;
let token: string;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
  if (tmpdirBefore === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = tmpdirBefore;
  rmSync(tempFolder, { recursive: true, force: true });
});
beforeEach(async () => {
  await resetLockRegistry(database.prisma);
  const grant = grantedOrConflict(
    await acquireTableLock(database.prisma, {
      tableName: 'categories',
      editor: 'alice',
      leaseSeconds: 60,
    }),
  );
  token = grant.fencingToken;
});

const dryRun = (content: Buffer, limits: Partial<ImportLimits> = {}) =>
  dryRunImport(database.prisma, {
    schema: MASTER_SCHEMA,
    tableName: 'categories',
    holder: 'alice',
    token,
    fileName: 'categories.xlsx',
    format: 'xlsx',
    content,
    limits: { ...IMPORT_LIMITS, ...limits },
  });

const inlineCell = (reference: string, text: string) =>
  `<c r="${reference}" t="inlineStr"><is><t>${text}</t></is></c>`;

describe('XLSX imports under attack', () => {
  it('refuses a header that reaches column XFD at once, without widening rows to it', async () => {
    const rows = Array.from(
      { length: 1000 },
      (_, index) => `<row r="${index + 2}"><c r="A${index + 2}"><v>${index + 1000}</v></c></row>`,
    );
    const wide = await handmadeXlsx([
      `<row r="1">${inlineCell('A1', 'id')}${inlineCell('XFD1', 'name')}</row>`,
      ...rows,
    ]);
    await expect(dryRun(wide)).rejects.toMatchObject({
      code: 'IMPORT_BAD_FILE',
      message: expect.stringContaining('column XFD'),
    });
  });

  it('refuses a value right of the header', async () => {
    const file = await handmadeXlsx(
      `<row r="1">${inlineCell('A1', 'id')}${inlineCell('B1', 'name')}</row><row r="2"><c r="A2"><v>900</v></c><c r="XFD2"><v>1</v></c></row>`,
    );
    await expect(dryRun(file)).rejects.toMatchObject({
      code: 'IMPORT_BAD_FILE',
      message: expect.stringContaining('Row 2 has a value in column XFD'),
    });
  });

  it('refuses elements nested deeper than a sheet needs', async () => {
    const nested = await handmadeXlsx([
      `<row r="1">${inlineCell('A1', 'id')}</row>`,
      '<x>'.repeat(200_000),
      '</x>'.repeat(200_000),
    ]);
    await expect(dryRun(nested)).rejects.toMatchObject({
      code: 'IMPORT_BAD_FILE',
      message: expect.stringContaining('nests elements'),
    });
  });

  it('refuses more shared strings than the limit', async () => {
    const file = await handmadeXlsx(`<row r="1"><c r="A1" t="s"><v>0</v></c></row>`, {
      sharedStrings: [
        '<?xml version="1.0" encoding="UTF-8"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>id</t></si>',
        '<si/>'.repeat(1000),
        '</sst>',
      ],
    });
    await expect(dryRun(file, { maxSharedStrings: 1000 })).rejects.toMatchObject({
      code: 'IMPORT_TOO_LARGE',
    });
  });

  it('refuses a part that inflates past the limit before inflating it, and leaves no temp file', async () => {
    const spaces = ' '.repeat(1024 * 1024);
    const bomb = await handmadeXlsx(`<row r="1">${inlineCell('A1', 'id')}</row>`, {
      parts: { 'xl/worksheets/sheet2.xml': Array.from({ length: 8 }, () => spaces) },
    });
    await expect(dryRun(bomb, { maxInflatedBytes: 4 * 1024 * 1024 })).rejects.toMatchObject({
      code: 'IMPORT_TOO_LARGE',
      message: expect.stringContaining('sheet2.xml'),
    });
    expect(readdirSync(tempFolder)).toEqual([]);
  });

  it('leaves no temp file after ordinary and failing imports', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('categories');
    sheet.addRow(['id', 'name', 'parent_id', 'sort_order']);
    sheet.addRow([1, 'Food', null, 1]);
    const content = Buffer.from(await workbook.xlsx.writeBuffer());
    expect((await dryRun(content)).counts).toMatchObject({ unchanged: 1 });
    expect(readdirSync(tempFolder)).toEqual([]);
    sheet.addRow([2, 'Drinks', null, 2, 'extra']);
    await expect(dryRun(Buffer.from(await workbook.xlsx.writeBuffer()))).rejects.toMatchObject({
      code: 'IMPORT_BAD_FILE',
    });
    expect(readdirSync(tempFolder)).toEqual([]);
  });

  it('imports a 1,000-row XLSX as SheetJS writes it, every time', async () => {
    const rows = Array.from({ length: 1000 }, (_, index) => [
      index + 5000,
      `Category ${index}`,
      index % 3 === 0 ? 1 : null,
      index,
    ]);
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(
      book,
      XLSX.utils.aoa_to_sheet([['id', 'name', 'parent_id', 'sort_order'], ...rows]),
      'categories',
    );
    const content = XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
    for (let attempt = 0; attempt < 8; attempt++) {
      const report = await dryRun(content);
      expect(report.counts).toEqual({
        create: 1000,
        update: 0,
        unchanged: 0,
        error: 0,
        total: 1000,
      });
      const { rows: first } = await readImportRows(database.prisma, report.id, 'alice', {
        outcomes: [],
        offset: 0,
        limit: 2,
      });
      expect(first.map((row) => row.values)).toEqual([
        { id: '5000', name: 'Category 0', parent_id: '1', sort_order: '0' },
        { id: '5001', name: 'Category 1', parent_id: null, sort_order: '1' },
      ]);
    }
  });
});

describe('CSV text the database cannot hold', () => {
  it('refuses a NUL character with IMPORT_BAD_FILE', async () => {
    await expect(
      dryRunImport(database.prisma, {
        schema: MASTER_SCHEMA,
        tableName: 'categories',
        holder: 'alice',
        token,
        fileName: 'categories.csv',
        format: 'csv',
        content: Buffer.from('id,name\r\n1,Fo\u0000od\r\n'),
      }),
    ).rejects.toMatchObject({ code: 'IMPORT_BAD_FILE' });
  });
});

describe('dry runs at once', () => {
  it('keeps only the newest of one editor on one table', async () => {
    // Large enough for the three to overlap.
    const lines = Array.from({ length: 5000 }, (_, index) => `${index + 7000},Row ${index}`);
    const csv = Buffer.from(['id,name', ...lines].join('\r\n'));
    const reports = await Promise.all(
      Array.from({ length: 3 }, () =>
        dryRunImport(database.prisma, {
          schema: MASTER_SCHEMA,
          tableName: 'categories',
          holder: 'alice',
          token,
          fileName: 'categories.csv',
          format: 'csv',
          content: csv,
        }),
      ),
    );
    expect(reports).toHaveLength(3);
    const kept = await database.prisma.$queryRaw<{ count: number }[]>`
      SELECT count(*)::int AS count FROM tablelock.import_dry_run
      WHERE editor = 'alice' AND table_name = 'categories'`;
    expect(kept).toEqual([{ count: 1 }]);
  });
});
