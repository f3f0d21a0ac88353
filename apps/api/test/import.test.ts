import { request as httpRequest } from 'node:http';
import { MAX_IMPORT_BYTES } from '@tablelock/master-data';
import { createTestDatabase, resetLockRegistry, type TestDatabase } from '@tablelock/test-support';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { graphql } from './generated';
import { acquireTableLockAs, forceReleaseAs } from './support/lockOperations';
import { execute, startTestApi, type TestApi, type TestClient } from './support/testApi';

let database: TestDatabase;
let api: TestApi;
let alice: TestClient;
let bob: TestClient;
let carol: TestClient;
let admin: TestClient;
let token: string;

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

beforeAll(async () => {
  database = await createTestDatabase();
  api = await startTestApi(database);
  alice = await api.loginAs('alice');
  bob = await api.loginAs('bob');
  carol = await api.loginAs('carol');
  admin = await api.loginAs('admin');
});
afterAll(async () => {
  await api.stop();
  await database.close();
});
beforeEach(async () => {
  await resetLockRegistry(database.prisma);
  token = (await acquireTableLockAs(alice, 'products')).token;
});

const importRowsMutation = graphql(`
  mutation ImportRows(
    $table: String!
    $token: String!
    $fileName: String!
    $format: ImportFormat!
    $content: String!
    $dryRun: Boolean
    $columnMapping: [ImportColumnMapping!]
  ) {
    importRows(
      table: $table
      token: $token
      fileName: $fileName
      columnMapping: $columnMapping
      format: $format
      contentBase64: $content
      dryRun: $dryRun
    ) {
      id
      applied
      counts {
        create
        update
        unchanged
        error
        total
      }
      rows(limit: 10) {
        total
        rows {
          line
          outcome
          changed
          previous
          errors {
            column
            code
          }
        }
      }
    }
  }
`);

const importReportQuery = graphql(`
  query ImportReportRows($id: ID!, $outcomes: [ImportOutcome!]) {
    importReport(id: $id) {
      table
      fileName
      columns
      rows(outcomes: $outcomes, offset: 0, limit: 5) {
        total
        rows {
          line
          outcome
          key
          version
        }
      }
    }
  }
`);

const importLabelsQuery = graphql(`
  query ImportRowLabels($id: ID!) {
    importReport(id: $id) {
      labelColumn
      rows(offset: 0, limit: 5) {
        rows {
          key
          label
        }
      }
    }
  }
`);

const applyImportMutation = graphql(`
  mutation ApplyImport($id: ID!, $token: String!) {
    applyImport(id: $id, token: $token) {
      applied
      counts {
        create
        update
      }
    }
  }
`);

const HEADER =
  'id,sku,name,category_id,supplier_id,unit_price,currency_code,weight_kg,launched_on,discontinued,description';

async function product(id: number) {
  const [row] = await database.prisma.$queryRawUnsafe<{ name: string; unit_price: string }[]>(
    'SELECT name, unit_price::text FROM master.products WHERE id = $1',
    id,
  );
  return row;
}

/** Product rows as the export writes them, straight from the database. */
async function exportedLines(ids: number[]) {
  const response = await fetch(
    `${api.url}/export/products.csv?filter=${encodeURIComponent(
      JSON.stringify([
        { column: 'id', operator: 'lessThanOrEqual', value: String(Math.max(...ids)) },
      ]),
    )}`,
    { headers: alice.headers },
  );
  const [header, ...lines] = (await response.text())
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n');
  return { header: header as string, lines };
}

function upload(
  client: TestClient,
  content: string | Buffer,
  query: Record<string, string> = {},
  headers: Record<string, string> = {},
  table = 'products',
) {
  const search = new URLSearchParams({ token, fileName: 'products.csv', ...query });
  return fetch(`${api.url}/import/${table}?${search}`, {
    method: 'POST',
    headers: { 'content-type': 'text/csv', ...client.headers, ...headers },
    body: typeof content === 'string' ? `\uFEFF${content}` : content,
  });
}

interface Answer {
  report?: { id: string; applied: boolean; counts: Record<string, number> };
  errors?: { message: string; extensions: { code: string; rows?: { line: number }[] } }[];
}

async function answer(response: Response) {
  return { status: response.status, ...((await response.json()) as Answer) };
}

const codeOf = (body: Answer) => body.errors?.[0]?.extensions.code;

describe('import over HTTP', () => {
  it('round-trips an export: a dry run of it is all unchanged', async () => {
    const { header, lines } = await exportedLines([1, 2, 3]);
    expect(header).toBe(HEADER);
    const dryRun = await answer(
      await upload(alice, [header, ...lines].join('\r\n'), { dryRun: '1' }),
    );
    expect(dryRun.status).toBe(200);
    expect(dryRun.report?.counts).toEqual({
      create: 0,
      update: 0,
      unchanged: 3,
      error: 0,
      total: 3,
    });
  });

  it('dry-runs without writing, then applies through GraphQL with a save in the history', async () => {
    const { header, lines } = await exportedLines([1, 2]);
    const changed = (lines[1] as string).replace('Organic', 'Imported');
    const created = `900001,SKU-NEW-1,New product,11,1,9.99,JPY,,2026-01-01,false,`;
    const dryRun = await answer(
      await upload(alice, [header, lines[0], changed, created].join('\r\n'), { dryRun: '1' }),
    );
    expect(dryRun.report).toMatchObject({
      applied: false,
      counts: { create: 1, update: 1, unchanged: 1 },
    });
    expect(await product(900001)).toBeUndefined();

    const id = dryRun.report?.id as string;
    const updates = await execute(alice, importReportQuery, { id, outcomes: ['update'] });
    expect(updates.data?.importReport).toMatchObject({
      table: 'products',
      fileName: 'products.csv',
      columns: HEADER.split(','),
      rows: { total: 1, rows: [{ line: 3, outcome: 'update', key: { id: '2' } }] },
    });
    expect((await execute(bob, importReportQuery, { id })).errors?.[0]?.extensions?.code).toBe(
      'NOT_FOUND',
    );

    const applied = await execute(alice, applyImportMutation, { id, token });
    expect(applied.data?.applyImport).toEqual({ applied: true, counts: { create: 1, update: 1 } });
    expect((await product(2))?.name).toContain('Imported');
    expect(await product(900001)).toMatchObject({ name: 'New product', unit_price: '9.99' });
    const [event] = await database.prisma.lockEvent.findMany({
      where: { tableName: 'products', action: 'save' },
      orderBy: { id: 'desc' },
      take: 1,
    });
    expect(event).toMatchObject({ actor: 'alice', reason: 'import products.csv', rowsChanged: 2 });
  });

  it('names each dry-run row by its label: the file’s where it has the column, else the table’s row of its key', async () => {
    const fromTable = await answer(
      await upload(alice, 'id,unit_price\r\n1,1.23\r\n900077,2.34', { dryRun: '1' }),
    );
    const page = await execute(alice, importLabelsQuery, { id: fromTable.report?.id as string });
    const labelColumn = page.data?.importReport.labelColumn as string;
    const [stored] = await database.prisma.$queryRawUnsafe<{ label: string }[]>(
      `SELECT "${labelColumn}"::text AS label FROM master.products WHERE id = 1`,
    );
    expect(page.data?.importReport.rows.rows).toEqual([
      { key: { id: '1' }, label: stored?.label },
      // A row the table does not have yet is named by the file alone: here, by nothing.
      { key: { id: '900077' }, label: null },
    ]);

    const fromFile = await answer(
      await upload(alice, `id,${labelColumn}\r\n1,Named in the file`, { dryRun: '1' }),
    );
    expect(
      (await execute(alice, importLabelsQuery, { id: fromFile.report?.id as string })).data
        ?.importReport.rows.rows,
    ).toEqual([{ key: { id: '1' }, label: 'Named in the file' }]);
  });

  it('reports every kind of error by row and offers them as a file; nothing is written', async () => {
    const { header, lines } = await exportedLines([1]);
    const bad = [
      `900010,SKU-X1,Bad price,11,1,cheap,JPY,,2026-01-01,false,`,
      `900011,SKU-X2,,11,1,1.00,JPY,,2026-01-01,false,`,
      `900012,SKU-X3,Long code,11,1,1.00,EURO,,2026-01-01,false,`,
      `900013,SKU-X4,No supplier,11,99999,1.00,JPY,,2026-01-01,false,`,
      lines[0] as string,
      lines[0] as string,
    ];
    const dryRun = await answer(
      await upload(alice, [header, ...bad].join('\r\n'), { dryRun: '1' }),
    );
    expect(dryRun.report?.counts).toMatchObject({ error: 5, unchanged: 1, total: 6 });
    const errors = await fetch(`${api.url}/import/dry-runs/${dryRun.report?.id}/errors.csv`, {
      headers: alice.headers,
    });
    expect(errors.headers.get('content-disposition')).toBe(
      'attachment; filename=products-errors.csv',
    );
    const bytes = Buffer.from(await errors.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8');
    const records = parse(text, { bom: true, columns: true }) as Record<string, string>[];
    // In the grid's words (English without a language; importErrorsLanguage.test.ts has more).
    expect(records.map((record) => [record.id, record.error?.split(':')[0]])).toEqual([
      ['900010', '"cheap" is not a valid unit_price.'],
      ['900011', 'name may not be empty. Enter a value.'],
      ['900012', '"EURO" is not a valid currency_code.'],
      ['900013', 'supplier_id'],
      ['1', 'Row 6 of the file has the same key. Keep one of them.'],
    ]);
    expect(records[1]?.name).toBe('');
    // Each error says its column once.
    expect(records[1]?.error).toBe('name may not be empty. Enter a value.');
    const apply = await execute(alice, applyImportMutation, {
      id: dryRun.report?.id as string,
      token,
    });
    expect(apply.errors?.[0]?.extensions?.code).toBe('IMPORT_HAS_ERRORS');
    expect(await product(900010)).toBeUndefined();
  });

  it('offers the erroneous rows of an XLSX upload as errors.xlsx', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('products').addRows([
      [
        'id',
        'sku',
        'name',
        'category_id',
        'supplier_id',
        'unit_price',
        'currency_code',
        'launched_on',
      ],
      [900030, 'SKU-XL1', null, 11, 1, 1, 'JPY', '2026-01-01'],
    ]);
    const file = Buffer.from(await workbook.xlsx.writeBuffer());
    const dryRun = await answer(
      await upload(
        alice,
        file,
        { dryRun: '1', fileName: 'products.xlsx' },
        { 'content-type': XLSX_TYPE },
      ),
    );
    const errors = await fetch(`${api.url}/import/dry-runs/${dryRun.report?.id}/errors.xlsx`, {
      headers: alice.headers,
    });
    expect(errors.headers.get('content-disposition')).toBe(
      'attachment; filename=products-errors.xlsx',
    );
    const read = new ExcelJS.Workbook();
    await read.xlsx.load(await errors.arrayBuffer());
    const rows = read.worksheets[0]?.getSheetValues().slice(1) as unknown[][];
    expect(rows.map((row) => [row[1], row[row.length - 1]])).toEqual([
      ['id', 'error'],
      ['900030', 'name may not be empty. Enter a value.'],
    ]);
  });

  it('applies at once without dryRun, and refuses a file with errors then', async () => {
    const { header } = await exportedLines([1]);
    const good = await answer(
      await upload(
        alice,
        [header, `900020,SKU-D1,Direct,11,1,1.00,JPY,,2026-01-01,false,`].join('\r\n'),
      ),
    );
    expect(good.report).toMatchObject({ applied: true, counts: { create: 1 } });
    expect(await product(900020)).toMatchObject({ name: 'Direct' });
    const bad = await answer(
      await upload(
        alice,
        [header, `900021,SKU-D2,Direct,11,1,x,JPY,,2026-01-01,false,`].join('\r\n'),
      ),
    );
    expect([bad.status, codeOf(bad)]).toEqual([409, 'IMPORT_HAS_ERRORS']);
    expect(await product(900021)).toBeUndefined();
  });

  it('writes nothing when the lock is lost between the dry run and the apply', async () => {
    const { header, lines } = await exportedLines([3]);
    const changed = (lines[2] as string).replace(/^(\d+),([^,]*),([^,]*)/, '$1,$2,Lost lock');
    const dryRun = await answer(
      await upload(alice, [header, changed].join('\r\n'), { dryRun: '1' }),
    );
    expect(dryRun.report?.counts.update).toBe(1);
    await forceReleaseAs(admin, 'products', 'import test');
    const apply = await execute(alice, applyImportMutation, {
      id: dryRun.report?.id as string,
      token,
    });
    expect(apply.errors?.[0]?.extensions?.code).toBe('LOCK_LOST');
    expect((await product(3))?.name).not.toBe('Lost lock');
  });

  it('writes nothing when a row was changed by someone else meanwhile, and names it', async () => {
    const { header, lines } = await exportedLines([5]);
    const file = [
      header,
      ...lines.map((line) => line.replace(/^(\d+),([^,]*),([^,]*)/, '$1,$2,$3 v2')),
    ];
    const dryRun = await answer(await upload(alice, file.join('\r\n'), { dryRun: '1' }));
    expect(dryRun.report?.counts.update).toBe(5);
    // Someone writing past the lock (a script on the database).
    await database.prisma.$executeRawUnsafe(
      `UPDATE master.products SET unit_price = 1 WHERE id = 4`,
    );
    const apply = await execute(alice, applyImportMutation, {
      id: dryRun.report?.id as string,
      token,
    });
    expect(apply.errors?.[0]?.extensions).toMatchObject({
      code: 'IMPORT_ROWS_CHANGED',
      rows: [{ line: 5, key: { id: '4' } }],
    });
    expect((await product(1))?.name).not.toContain('v2');
  });

  it('refuses files over the limits with IMPORT_TOO_LARGE, and bad files with IMPORT_BAD_FILE', async () => {
    // Said to be over the limit: refused at once, from the header.
    const tooBig = await new Promise<{ status: number; code: string | undefined }>((resolve) => {
      const search = new URLSearchParams({ token, dryRun: '1' });
      const upload = httpRequest(`${api.url}/import/products?${search}`, {
        method: 'POST',
        headers: {
          ...alice.headers,
          'content-type': 'text/csv',
          'content-length': String(MAX_IMPORT_BYTES + 1),
        },
      });
      upload.on('error', () => {});
      upload.on('response', async (response) => {
        const chunks: Buffer[] = [];
        for await (const chunk of response) chunks.push(chunk as Buffer);
        const body = JSON.parse(Buffer.concat(chunks).toString()) as Answer;
        resolve({ status: response.statusCode ?? 0, code: codeOf(body) });
        upload.destroy();
      });
      upload.write('id\n');
    });
    expect(tooBig).toEqual({ status: 413, code: 'IMPORT_TOO_LARGE' });
    const plain = await answer(
      await upload(alice, 'id\n1', { dryRun: '1' }, { 'content-type': 'text/plain' }),
    );
    expect([plain.status, codeOf(plain)]).toEqual([400, 'IMPORT_BAD_FILE']);
    const notXlsx = await answer(
      await upload(alice, 'id\n1', { dryRun: '1' }, { 'content-type': XLSX_TYPE }),
    );
    expect([notXlsx.status, codeOf(notXlsx)]).toEqual([400, 'IMPORT_BAD_FILE']);
    const unknownColumn = await answer(await upload(alice, 'id,colour\n1,red', { dryRun: '1' }));
    expect([unknownColumn.status, codeOf(unknownColumn)]).toEqual([400, 'IMPORT_BAD_FILE']);
  });

  it('reads XLSX as the export writes it', async () => {
    const response = await fetch(
      `${api.url}/export/products.xlsx?filter=${encodeURIComponent(
        JSON.stringify([{ column: 'id', operator: 'lessThanOrEqual', value: '20' }]),
      )}`,
      { headers: alice.headers },
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await response.arrayBuffer());
    const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
    sheet.getCell('C2').value = 'Edited in Excel';
    const content = Buffer.from(await workbook.xlsx.writeBuffer());
    const dryRun = await answer(
      await upload(
        alice,
        content,
        { dryRun: '1', fileName: 'products.xlsx' },
        { 'content-type': XLSX_TYPE },
      ),
    );
    expect(dryRun.report?.counts).toEqual({
      create: 0,
      update: 1,
      unchanged: 19,
      error: 0,
      total: 20,
    });
  });

  it('is refused to viewers, to cross-site pages, to those without the lock, and to anonymous callers', async () => {
    const viewer = await answer(await upload(carol, 'id\n1', { dryRun: '1' }));
    expect([viewer.status, codeOf(viewer)]).toEqual([403, 'FORBIDDEN']);
    const crossSite = await answer(
      await upload(alice, 'id\n1', { dryRun: '1' }, { 'sec-fetch-site': 'cross-site' }),
    );
    expect([crossSite.status, codeOf(crossSite)]).toEqual([403, 'FORBIDDEN']);
    const notHolder = await answer(await upload(bob, 'id\n1', { dryRun: '1' }));
    expect([notHolder.status, codeOf(notHolder)]).toEqual([409, 'LOCK_LOST']);
    const anonymous = await answer(await upload(api.anonymous, 'id\n1', { dryRun: '1' }));
    expect([anonymous.status, codeOf(anonymous)]).toEqual([401, 'UNAUTHENTICATED']);
  });
});

describe('import over GraphQL', () => {
  it('dry-runs and applies a base64 file, for other systems', async () => {
    const key = await api.withApiKey('importer', 'editor');
    await resetLockRegistry(database.prisma);
    token = (await acquireTableLockAs(key, 'products')).token;
    const { header, lines } = await exportedLines([1]);
    const content = Buffer.from(
      [header, (lines[0] as string).replace(/^1,([^,]*),[^,]*/, '1,$1,By key')].join('\r\n'),
    ).toString('base64');
    const variables = {
      table: 'products',
      token,
      fileName: 'p.csv',
      format: 'CSV' as const,
      content,
    };
    const dryRun = await execute(key, importRowsMutation, variables);
    expect(dryRun.data?.importRows).toMatchObject({
      applied: false,
      counts: { update: 1, total: 1 },
      rows: { total: 1, rows: [{ line: 2, outcome: 'update', changed: ['name'] }] },
    });
    expect((await product(1))?.name).not.toBe('By key');
    const applied = await execute(key, importRowsMutation, { ...variables, dryRun: false });
    expect(applied.data?.importRows).toMatchObject({ applied: true, rows: { total: 0 } });
    expect((await product(1))?.name).toBe('By key');
    const viewer = await execute(carol, importRowsMutation, variables);
    expect(viewer.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const notBase64 = await execute(key, importRowsMutation, { ...variables, content: '%%%' });
    expect(notBase64.errors?.[0]?.extensions?.code).toBe('IMPORT_BAD_FILE');
  });

  it('reads a file with other column names through columnMapping', async () => {
    const key = await api.withApiKey('mapper', 'editor');
    await resetLockRegistry(database.prisma);
    token = (await acquireTableLockAs(key, 'categories')).token;
    const variables = {
      table: 'categories',
      token,
      fileName: 'c.csv',
      format: 'CSV' as const,
      content: Buffer.from('Code,Label,Remark\r\n1,Food,x\r\n').toString('base64'),
    };
    const unmapped = await execute(key, importRowsMutation, variables);
    expect(unmapped.errors?.[0]?.extensions).toMatchObject({
      code: 'IMPORT_BAD_FILE',
      fileColumns: ['Code', 'Label', 'Remark'],
    });
    const columnMapping = [
      { fileColumn: 'Code', tableColumn: 'id' },
      { fileColumn: 'Label', tableColumn: 'name' },
      { fileColumn: 'Remark', tableColumn: null },
    ];
    const mapped = await execute(key, importRowsMutation, { ...variables, columnMapping });
    expect(mapped.data?.importRows.counts).toMatchObject({ unchanged: 1, error: 0 });
  });
});
