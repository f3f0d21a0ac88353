import { createTestDatabase, type TestDatabase } from '@tablelock/test-support';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireTableLockAs } from './support/lockOperations';
import { startTestApi, type TestApi, type TestClient } from './support/testApi';

let database: TestDatabase;
let api: TestApi;
let alice: TestClient;

// What a spreadsheet runs as a formula at the start of a cell, or of a line for a reader that
// splits lines before it reads quotes.
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
const LINE_BREAK = /\r\n|\r|\n/;

const PROBE_COLUMNS = `
  id integer PRIMARY KEY,
  plain text,
  note text,
  note_domain master.note_text,
  nested_domain master.short_note,
  ci citext,
  vc varchar(60),
  mood master.mood,
  tags text[],
  tag_domain master.tag_list,
  nested_tags master.short_tags,
  amount numeric(10, 2)`;

const CALC = "see below\n=cmd|' /C calc'!A0";

beforeAll(async () => {
  database = await createTestDatabase();
  for (const statement of [
    'CREATE EXTENSION IF NOT EXISTS citext',
    'CREATE DOMAIN master.note_text AS text',
    'CREATE DOMAIN master.short_note AS master.note_text CHECK (length(VALUE) < 100)',
    `CREATE TYPE master.mood AS ENUM ('calm', '=HYPERLINK("http://evil.example")')`,
    'CREATE DOMAIN master.tag_list AS text[]',
    'CREATE DOMAIN master.short_tags AS master.tag_list CHECK (cardinality(VALUE) < 10)',
    `CREATE TABLE master.formula_probe (${PROBE_COLUMNS})`,
  ]) {
    await database.prisma.$executeRawUnsafe(statement);
  }
  await database.prisma.$executeRaw`
    INSERT INTO master.formula_probe VALUES
      (1, ${'\r=1+1'}, ${CALC}, NULL, NULL, NULL, NULL, 'calm', NULL, NULL, NULL, 1),
      (2, ${"'=1"}, ${"''+2\n'-3"}, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 2),
      (3, ${'a\r\r=x'}, ${'-1\n+1\r\n@SUM(A1)\n\t=2'}, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 3),
      (4, 'plain', NULL, '=1+1', '+1', '@x', '-x', '=HYPERLINK("http://evil.example")',
       ${['ok', 'y\n=1+1']}::text[], ${['z\r-2']}::text[], ${['w\n+3']}::text[], -1),
      (5, 'notes:\n- one\n- two', '', '', 'fine', 'Fine', '', 'calm', '{}', '{a}', '{b}', NULL)`;
  await database.prisma.tableLock.create({ data: { tableName: 'formula_probe' } });
  api = await startTestApi(database);
  alice = await api.loginAs('alice');
});
afterAll(async () => {
  await api.stop();
  await database.close();
});

async function exportCsv() {
  const sort = JSON.stringify([{ column: 'id', direction: 'asc' }]);
  const response = await fetch(
    `${api.url}/export/formula_probe.csv?sort=${encodeURIComponent(sort)}`,
    { headers: alice.headers },
  );
  expect(response.status).toBe(200);
  return (await response.text()).replace(/^\uFEFF/, '');
}

describe('the CSV export against formula injection', () => {
  it('starts no cell, and no line of a cell, with a formula: line breaks and text-like types too', async () => {
    const csv = await exportCsv();
    const [header, ...records] = parse(csv) as string[][];
    expect(header).toEqual([
      'id',
      'plain',
      'note',
      'note_domain',
      'nested_domain',
      'ci',
      'vc',
      'mood',
      'tags',
      'tag_domain',
      'nested_tags',
      'amount',
    ]);
    expect(records).toHaveLength(5);
    for (const record of records) {
      for (const [index, cell] of record.entries()) {
        // Numbers are left as they are: -1.00 is a number to a spreadsheet, not a formula.
        if (header?.[index] === 'amount') continue;
        for (const line of cell.split(LINE_BREAK)) {
          expect(line, `${header?.[index]} of row ${record[0]}`).not.toMatch(FORMULA_START);
        }
      }
    }
    expect(records.map((record) => record.at(-1))).toEqual(['1.00', '2.00', '3.00', '-1.00', '']);
    // A reader that takes every CR or LF for a new row sees no formula at a row's start either.
    for (const line of csv.split(LINE_BREAK)) expect(line).not.toMatch(FORMULA_START);
  });

  it('guards domains over text, domains over those, citext, varchar, enums, text arrays and domains over them', async () => {
    const [, , , , fourth] = parse(await exportCsv()) as string[][];
    expect(fourth).toEqual([
      '4',
      'plain',
      '',
      "'=1+1",
      "'+1",
      "'@x",
      "'-x",
      `'=HYPERLINK("http://evil.example")`,
      `{ok,"y\n'=1+1"}`,
      `{"z\r'-2"}`,
      `{"w\n'+3"}`,
      '-1.00',
    ]);
  });

  it('quotes every field that holds a CR or LF, so that a spreadsheet keeps it in one cell', async () => {
    const csv = await exportCsv();
    expect(csv).toContain(`\r\n1,"'\r'=1+1","see below\n'=cmd|' /C calc'!A0",,,,,calm,,,,1.00\r\n`);
  });

  it('reads back what it wrote: a dry run of the export changes nothing', async () => {
    const csv = await exportCsv();
    const { token } = await acquireTableLockAs(alice, 'formula_probe');
    const search = new URLSearchParams({ token, fileName: 'formula_probe.csv', dryRun: '1' });
    const response = await fetch(`${api.url}/import/formula_probe?${search}`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv', ...alice.headers },
      body: `\uFEFF${csv}`,
    });
    const body = (await response.json()) as { report?: { counts: Record<string, number> } };
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(body.report?.counts).toEqual({
      create: 0,
      update: 0,
      unchanged: 5,
      error: 0,
      total: 5,
    });
  });
});
