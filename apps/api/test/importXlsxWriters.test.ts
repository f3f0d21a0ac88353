import { MAX_LEASE_SECONDS } from '@tablelock/lock';
import { createTestDatabase, type TestDatabase } from '@tablelock/test-support';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import XLSX from 'xlsx';
import { ZipFile } from 'yazl';
import { acquireTableLockAs } from './support/lockOperations';
import { startTestApi, type TestApi, type TestClient } from './support/testApi';

let database: TestDatabase;
let api: TestApi;
let alice: TestClient;
let token: string;

beforeAll(async () => {
  database = await createTestDatabase();
  api = await startTestApi(database);
  alice = await api.loginAs('alice');
  // Held for the whole file, which under the suite's load outlasted the default lease (60 s).
  token = (await acquireTableLockAs(alice, 'categories', { lease: MAX_LEASE_SECONDS })).token;
});
afterAll(async () => {
  await api.stop();
  await database.close();
});

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const ROWS = [
  ['id', 'name', 'parent_id', 'sort_order'],
  [1, 'Food', null, 1],
  [700, 'Written elsewhere', 1, 7],
];

function sheetJs(compression: boolean): Buffer {
  const workbook = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet(ROWS), 'categories');
  return XLSX.write(workbook, { type: 'buffer', bookType: 'xlsx', compression }) as Buffer;
}

async function exceljs(compression: boolean): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.addWorksheet('categories').addRows(ROWS);
  const zip = { compression: compression ? 'DEFLATE' : 'STORE' };
  return Buffer.from(await workbook.xlsx.writeBuffer({ zip } as ExcelJS.XlsxWriteOptions));
}

/** The same parts, their zip entries in the reverse order, each stored or deflated. */
async function reordered(file: Buffer, compress: boolean): Promise<Buffer> {
  // SheetJS bundles its zip reader (cfb) without its types.
  const read = XLSX.CFB.read(file, { type: 'buffer' }) as {
    FileIndex: { type: number; name: string; content: Uint8Array }[];
    FullPaths: string[];
  };
  const parts = read.FileIndex.flatMap((entry, index) =>
    entry.type === 2 && !entry.name.startsWith('\u0001') && !read.FullPaths[index]?.endsWith('/')
      ? [{ path: (read.FullPaths[index] ?? '').replace(/^[^/]*\//, ''), content: entry.content }]
      : [],
  );
  const zip = new ZipFile();
  for (const { path, content } of parts.reverse()) {
    zip.addBuffer(Buffer.from(content), path, { compress });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const WRITERS: [string, () => Buffer | Promise<Buffer>][] = [
  ['SheetJS, uncompressed (its default)', () => sheetJs(false)],
  ['SheetJS, compressed', () => sheetJs(true)],
  ['exceljs, uncompressed', () => exceljs(false)],
  ['exceljs, compressed', () => exceljs(true)],
  ['SheetJS, its zip entries reversed, stored', () => reordered(sheetJs(false), false)],
  ['exceljs, its zip entries reversed, deflated', async () => reordered(await exceljs(true), true)],
];

const TIMES = 20;

describe('an XLSX upload written by another system', () => {
  it.each(WRITERS)('is read every time when written by %s', async (_, write) => {
    const file = await write();
    const outcomes: string[] = [];
    for (let time = 0; time < TIMES; time++) {
      const response = await fetch(
        `${api.url}/import/categories?token=${token}&fileName=categories.xlsx&dryRun=1`,
        {
          method: 'POST',
          headers: { ...alice.headers, 'content-type': XLSX_TYPE },
          body: file,
        },
      );
      const answer = (await response.json()) as {
        report?: { counts: { unchanged: number; create: number } };
        errors?: { message: string }[];
      };
      outcomes.push(
        answer.report
          ? `${answer.report.counts.unchanged} unchanged, ${answer.report.counts.create} new`
          : (answer.errors?.[0]?.message ?? `HTTP ${response.status}`),
      );
    }
    expect(outcomes).toEqual(new Array(TIMES).fill('1 unchanged, 1 new'));
  });
});
