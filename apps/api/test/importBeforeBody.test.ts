import { once } from 'node:events';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { type ClientRequest, request as httpRequest, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createTestDatabase,
  handmadeXlsx,
  poll,
  resetLockRegistry,
  type TestDatabase,
} from '@tablelock/test-support';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import XLSX from 'xlsx';
import { acquireTableLockAs } from './support/lockOperations';
import { startTestApi, type TestApi, type TestClient } from './support/testApi';

// Temp files go to a folder of this file's own, so that it can be seen to stay empty.
const tempFolder = mkdtempSync(join(tmpdir(), 'import-uploads-'));
// Restored after the file: later files in the same worker need a folder that exists.
const tmpdirBefore = process.env.TMPDIR;
process.env.TMPDIR = tempFolder;

let database: TestDatabase;
let api: TestApi;
let alice: TestClient;
let bob: TestClient;
let carol: TestClient;
let token: string;

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

beforeAll(async () => {
  database = await createTestDatabase();
  api = await startTestApi(database);
  alice = await api.loginAs('alice');
  bob = await api.loginAs('bob');
  carol = await api.loginAs('carol');
});
afterAll(async () => {
  await api.stop();
  await database.close();
  if (tmpdirBefore === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = tmpdirBefore;
  rmSync(tempFolder, { recursive: true, force: true });
});
beforeEach(async () => {
  await resetLockRegistry(database.prisma);
  token = (await acquireTableLockAs(alice, 'categories')).token;
});

/** About `bytes` of CSV rows (the same one over and over). */
const rowsOf = (bytes: number) => Buffer.from(`1,${'a'.repeat(1021)}\n`.repeat(bytes / 1024));

/**
 * An upload that says it is 19 MB long and sends its first 64 kB only: the rest comes when
 * the test says so, or never.
 */
function openUpload(client: TestClient, query: Record<string, string> = {}, type = 'text/csv') {
  const url = new URL(
    `${api.url}/import/categories?${new URLSearchParams({ token, dryRun: '1', ...query })}`,
  );
  const upload = httpRequest(url, {
    method: 'POST',
    headers: {
      ...client.headers,
      'content-type': type,
      'content-length': String(19 * 1024 * 1024),
    },
  });
  upload.on('error', () => {});
  const answered = new Promise<{ status: number; code: string | undefined }>((resolve, reject) => {
    upload.on('response', (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString() || '{}') as {
          errors?: { extensions: { code: string } }[];
        };
        resolve({ status: response.statusCode ?? 0, code: body.errors?.[0]?.extensions.code });
      });
    });
    upload.on('close', () => reject(new Error('closed without an answer')));
  });
  upload.write('id,name\n');
  upload.write(rowsOf(64 * 1024));
  return { upload, answered };
}

/** A dry run of a one-row CSV by alice: answered at once. */
function smallDryRun(): Promise<Response> {
  return fetch(`${api.url}/import/categories?${new URLSearchParams({ token, dryRun: '1' })}`, {
    method: 'POST',
    headers: { ...alice.headers, 'content-type': 'text/csv' },
    body: 'id,name\n1,Food\n',
  });
}

/**
 * Resolves once the server reads the upload's body: 8 MB more do not fit in the sockets'
 * buffers, so they drain only as the server reads them (it reads only once it has let the
 * import in).
 */
async function bodyRead(upload: ClientRequest) {
  if (upload.write(rowsOf(8 * 1024 * 1024))) return;
  await once(upload, 'drain');
}

describe('an import is refused before its body is read', () => {
  it.each([
    ['anonymous', () => api.anonymous, 401, 'UNAUTHENTICATED'],
    ['a viewer', () => carol, 403, 'FORBIDDEN'],
    ['an editor without the lock', () => bob, 409, 'LOCK_LOST'],
  ])(
    'answers %s while the body is still being sent',
    async (_, client, status, code) => {
      const { upload, answered } = openUpload(client());
      // The upload has sent 64 kB of its 19 MB: an answer now was given without the rest.
      expect(await answered).toEqual({ status, code });
      upload.destroy();
    },
    10_000,
  );

  it('lets one caller run two imports at once, and refuses a third with TOO_MANY_REQUESTS', async () => {
    const first = openUpload(alice);
    await bodyRead(first.upload);
    const second = openUpload(alice);
    await bodyRead(second.upload);
    const third = await poll('the third import refused', 5000, async () => {
      const response = await smallDryRun();
      return response.status === 429 ? response : undefined;
    });
    expect(
      ((await third.json()) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions
        .code,
    ).toBe('TOO_MANY_REQUESTS');
    for (const { upload, answered } of [first, second]) {
      answered.catch(() => {});
      upload.destroy();
    }
    // Cut off, the two give their places back once the API has seen it (the next test of this
    // file imports again: a place still held made it TOO_MANY_REQUESTS).
    await poll('an import let in again', 10_000, async () =>
      (await smallDryRun()).status === 200 ? true : undefined,
    );
  });
});

describe('XLSX uploads and the temp folder', () => {
  it('holds no file there while an upload arrives, after it is cut off, or after an import', async () => {
    const cutOff = openUpload(alice, {}, XLSX_TYPE);
    await bodyRead(cutOff.upload);
    expect(readdirSync(tempFolder)).toEqual([]);
    cutOff.answered.catch(() => {});
    cutOff.upload.destroy();
    const file = await handmadeXlsx(
      '<row r="1"><c r="A1" t="inlineStr"><is><t>id</t></is></c></row><row r="2"><c r="A2"><v>1</v></c></row>',
    );
    const response = await fetch(
      `${api.url}/import/categories?${new URLSearchParams({ token, dryRun: '1' })}`,
      { method: 'POST', headers: { ...alice.headers, 'content-type': XLSX_TYPE }, body: file },
    );
    expect(response.status).toBe(200);
    expect(readdirSync(tempFolder)).toEqual([]);
  });
});

describe('an XLSX as SheetJS writes it (uncompressed, the sheet before the workbook)', () => {
  it('imports 1,000 rows over HTTP, 8 times of 8', async () => {
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(
      book,
      XLSX.utils.aoa_to_sheet([
        ['id', 'name', 'parent_id', 'sort_order'],
        ...Array.from({ length: 1000 }, (_, index) => [
          index + 5000,
          `Category ${index}`,
          1,
          index,
        ]),
      ]),
      'categories',
    );
    const file = XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
    for (let attempt = 0; attempt < 8; attempt++) {
      const response = await fetch(
        `${api.url}/import/categories?${new URLSearchParams({ token, dryRun: '1' })}`,
        { method: 'POST', headers: { ...alice.headers, 'content-type': XLSX_TYPE }, body: file },
      );
      const body = (await response.json()) as { report?: { counts: Record<string, number> } };
      expect([response.status, body.report?.counts]).toEqual([
        200,
        { create: 1000, update: 0, unchanged: 0, error: 0, total: 1000 },
      ]);
    }
  });
});

describe('a wide XLSX', () => {
  it('is refused with IMPORT_BAD_FILE, and the API goes on answering', async () => {
    const wide = await handmadeXlsx([
      '<row r="1"><c r="A1" t="inlineStr"><is><t>id</t></is></c><c r="XFD1" t="inlineStr"><is><t>name</t></is></c></row>',
      ...Array.from(
        { length: 1000 },
        (_, index) => `<row r="${index + 2}"><c r="A${index + 2}"><v>${index + 1}</v></c></row>`,
      ),
    ]);
    const response = await fetch(
      `${api.url}/import/categories?${new URLSearchParams({ token, dryRun: '1' })}`,
      { method: 'POST', headers: { ...alice.headers, 'content-type': XLSX_TYPE }, body: wide },
    );
    const body = (await response.json()) as { errors?: { extensions: { code: string } }[] };
    expect([response.status, body.errors?.[0]?.extensions.code]).toEqual([400, 'IMPORT_BAD_FILE']);
    expect((await fetch(`${api.url}/healthz`)).status).toBe(200);
  });
});
