import { createTestDatabase, type TestDatabase } from '@tablelock/test-support';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi, type TestClient } from './support/testApi';

let database: TestDatabase;
let api: TestApi;
let carol: TestClient;

// Values a CSV writer must quote, and text that must reach Excel unharmed.
const AWKWARD = [
  { id: 1, note: 'plain', amount: '1.50' },
  { id: 2, note: 'comma, inside', amount: '-2.00' },
  { id: 3, note: 'a "quoted" word', amount: null },
  { id: 4, note: 'two\nlines\r\nand CRLF', amount: '0.00' },
  { id: 5, note: '醤油ラーメン（大盛り）', amount: '1234567.89' },
  { id: 6, note: '', amount: '3.00' },
  { id: 7, note: null, amount: '4.00' },
  { id: 8, note: '=1+2', amount: '5.00' },
];

beforeAll(async () => {
  database = await createTestDatabase();
  await database.prisma.$executeRawUnsafe(
    'CREATE TABLE master.export_probe (id integer PRIMARY KEY, note text, amount numeric(10, 2))',
  );
  for (const { id, note, amount } of AWKWARD) {
    await database.prisma.$executeRaw`
      INSERT INTO master.export_probe VALUES (${id}, ${note}, ${amount}::numeric)`;
  }
  await database.prisma.tableLock.create({ data: { tableName: 'export_probe' } });
  api = await startTestApi(database);
  carol = await api.loginAs('carol');
});
afterAll(async () => {
  await api.stop();
  await database.close();
});

const GREEN_TEA = {
  sort: JSON.stringify([{ column: 'unit_price', direction: 'desc' }]),
  filter: JSON.stringify([{ column: 'name', operator: 'contains', value: 'green tea' }]),
};

function download(
  client: TestClient,
  file: string,
  query: Record<string, string> = {},
  headers: Record<string, string> = {},
) {
  const search = new URLSearchParams(query).toString();
  return fetch(`${api.url}/export/${file}${search ? `?${search}` : ''}`, {
    headers: { ...client.headers, ...headers },
  });
}

/** The filtered, sorted view straight from the database: what every export must contain. */
async function greenTeaIds() {
  const rows = await database.prisma.$queryRaw<{ id: number }[]>`
    SELECT id FROM master.products WHERE name LIKE '%green tea%' ORDER BY unit_price DESC, id`;
  return rows.map(({ id }) => String(id));
}

async function errorOf(response: Response) {
  const body = (await response.json()) as {
    errors: { message: string; extensions: { code: string; requestId: string } }[];
  };
  const [error] = body.errors;
  expect(error?.extensions.requestId).toBe(response.headers.get('x-request-id'));
  return { status: response.status, code: error?.extensions.code };
}

/** Today in `timeZone`, as YYYY-MM-DD. */
const dayIn = (timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());

describe('export file names', () => {
  it("names the file by the day in the caller's time zone", async () => {
    // 25 hours apart: never the same day.
    for (const tz of ['Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
      const before = dayIn(tz);
      const response = await download(carol, 'currencies.csv', { tz });
      const after = dayIn(tz);
      expect(response.status).toBe(200);
      const name = /filename=(.+)$/.exec(response.headers.get('content-disposition') ?? '')?.[1];
      expect([`currencies_${before}.csv`, `currencies_${after}.csv`]).toContain(name);
      await response.arrayBuffer();
    }
  });
});

describe('export', () => {
  it('streams a filtered, sorted view as CSV with a BOM: exactly its rows, in order', async () => {
    const response = await download(carol, 'products.csv', GREEN_TEA);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename=products_\d{4}-\d{2}-\d{2}\.csv$/,
    );
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-request-id')).toBeTruthy();
    const bytes = Buffer.from(await response.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [header, ...records] = parse(bytes, { bom: true }) as string[][];
    expect(header).toEqual([
      'id',
      'sku',
      'name',
      'category_id',
      'supplier_id',
      'unit_price',
      'currency_code',
      'weight_kg',
      'launched_on',
      'discontinued',
      'description',
    ]);
    expect(records.map((record) => record[0])).toEqual(await greenTeaIds());
    expect(records).toHaveLength(10_000);
  });

  it('streams the same view as XLSX, numbers, dates and booleans typed', async () => {
    const response = await download(carol, 'products.xlsx', GREEN_TEA);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await response.arrayBuffer());
    const sheet = workbook.getWorksheet('products');
    if (!sheet) throw new Error('no products sheet');
    const rows = sheet.getSheetValues().filter(Boolean) as ExcelJS.CellValue[][];
    const [header, ...records] = rows.map((row) => row.slice(1));
    expect(header?.slice(0, 3)).toEqual(['id', 'sku', 'name']);
    expect(records.map((record) => String(record[0]))).toEqual(await greenTeaIds());
    const [first] = records;
    expect(typeof first?.[5]).toBe('number');
    expect(first?.[8]).toBeInstanceOf(Date);
    expect(typeof first?.[9]).toBe('boolean');
  });

  it('quotes commas, quotes and line breaks, tells NULL from empty, and keeps Japanese text', async () => {
    const sort = { sort: JSON.stringify([{ column: 'id', direction: 'asc' }]) };
    const csv = Buffer.from(
      await (await download(carol, 'export_probe.csv', sort)).arrayBuffer(),
    ).toString('utf8');
    expect(csv).toBe(
      '\uFEFFid,note,amount\r\n' +
        '1,plain,1.50\r\n' +
        '2,"comma, inside",-2.00\r\n' +
        '3,"a ""quoted"" word",\r\n' +
        '4,"two\nlines\r\nand CRLF",0.00\r\n' +
        '5,醤油ラーメン（大盛り）,1234567.89\r\n' +
        '6,"",3.00\r\n' +
        '7,,4.00\r\n' +
        "8,'=1+2,5.00\r\n",
    );
    expect(parse(csv, { bom: true, from_line: 2 })).toEqual(
      AWKWARD.map(({ id, note, amount }) => [
        String(id),
        note === '=1+2' ? `'${note}` : (note ?? ''),
        amount ?? '',
      ]),
    );

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(
      await (await download(carol, 'export_probe.xlsx', sort)).arrayBuffer(),
    );
    const notes = workbook.getWorksheet('export_probe')?.getColumn(2).values.slice(2);
    // A sheet is XML, which reads every line break as LF, and has no empty string apart from
    // an empty cell.
    expect(notes).toEqual(
      AWKWARD.map(({ note }) => (note ? note.replaceAll('\r\n', '\n') : undefined)),
    );
  });

  it('is for signed-in users and API keys only', async () => {
    expect(await errorOf(await download(api.anonymous, 'products.csv'))).toEqual({
      status: 401,
      code: 'UNAUTHENTICATED',
    });
    const badKey = { authorization: 'Bearer tl_not_a_key' };
    expect(await errorOf(await download(api.anonymous, 'products.csv', {}, badKey))).toEqual({
      status: 401,
      code: 'UNAUTHENTICATED',
    });
    const viewerKey = await api.withApiKey('export-reader', 'viewer');
    const byKey = await download(viewerKey, 'warehouses.csv');
    expect(byKey.status).toBe(200);
    expect((await byKey.text()).split('\r\n')).toHaveLength(4 + 2);
  });

  it('refuses a cookie sent by another site', async () => {
    const crossSite = await download(carol, 'products.csv', {}, { 'sec-fetch-site': 'cross-site' });
    expect(await errorOf(crossSite)).toEqual({ status: 403, code: 'FORBIDDEN' });
    const sameOrigin = await download(
      carol,
      'warehouses.csv',
      {},
      { 'sec-fetch-site': 'same-origin' },
    );
    expect(sameOrigin.status).toBe(200);
    await sameOrigin.arrayBuffer();
  });

  it('answers bad input with a coded error before the file starts', async () => {
    const refusals: [string, Record<string, string>, number, string][] = [
      ['no_such_table.csv', {}, 404, 'TABLE_NOT_FOUND'],
      ['products.pdf', {}, 404, 'NOT_FOUND'],
      ['products.csv', { sort: '[{"column":"nope","direction":"asc"}]' }, 400, 'BAD_USER_INPUT'],
      ['products.csv', { sort: 'name' }, 400, 'BAD_USER_INPUT'],
      ['products.csv', { filters: '[]' }, 400, 'BAD_USER_INPUT'],
      ['products.csv', { tz: 'Mars/Olympus_Mons' }, 400, 'BAD_USER_INPUT'],
      [
        'products.xlsx',
        { filter: '[{"column":"unit_price","operator":"lessThan","value":"cheap"}]' },
        400,
        'BAD_USER_INPUT',
      ],
    ];
    for (const [file, query, status, code] of refusals) {
      expect(await errorOf(await download(carol, file, query)), file).toEqual({ status, code });
    }
  });
});
