import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import pg from 'pg';
import * as XLSX from 'xlsx';
import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { storedRows } from '../support/graphql';
import { cell, editCell, rowId, startEditing } from '../support/tablePage';

// Products of their own, far from the rows other tests look at.
const FIRST = 99_001;
const LAST = 99_003;

/** The rows FIRST..LAST as the export writes them (header first), through alice's session. */
async function exportedLines(page: Page): Promise<string[]> {
  const filter = JSON.stringify([
    { column: 'id', operator: 'greaterThanOrEqual', value: String(FIRST) },
    { column: 'id', operator: 'lessThanOrEqual', value: String(LAST) },
  ]);
  const response = await page.request.get(
    `/export/products.csv?filter=${encodeURIComponent(filter)}`,
  );
  return (await response.text())
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n');
}

const renamed = (line: string, name: string) =>
  line.replace(/^(\d+),([^,]*),([^,]*)/, `$1,$2,${name}`);

async function dryRun(page: Page, lines: string[]) {
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(/^File/).setInputFiles({
    name: 'products.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`),
  });
  await dialog.getByRole('button', { name: 'Dry run' }).click();
  await expect(dialog.getByTestId('import-file-name')).toContainText('products.csv');
  return dialog;
}

/** alice, editing products. */
async function editProducts(
  openTableAs: (user: 'alice', table: string) => Promise<Page>,
): Promise<Page> {
  const alice = await openTableAs('alice', 'products');
  await startEditing(alice);
  return alice;
}

async function storedName(page: Page, id: number) {
  const [row] = await storedRows(page.request, 'products', [
    { column: 'id', operator: 'equals', value: String(id) },
  ]);
  return row?.name;
}

test('alice imports a file into products: the dry run shows what it does, apply writes it', async ({
  openTableAs,
  snap,
}) => {
  const alice = await editProducts(openTableAs);
  const [header, first, second, third] = await exportedLines(alice);
  const created = `${LAST + 1000},SKU-IMPORT-1,Imported kettle,32,5,12.50,JPY,1.2,2026-11-01,false,`;

  await alice.getByRole('button', { name: 'Import CSV/XLSX' }).click();
  const dialog = alice.getByRole('dialog');
  await expect(dialog).toContainText('nothing is deleted');
  await expectAccessible(alice);
  await snap(alice, 'import-choose-file');

  await dryRun(alice, [
    header as string,
    renamed(first as string, 'Renamed by import'),
    second as string,
    third as string,
    created,
  ]);
  await expect(dialog.getByTestId('import-counts')).toHaveText(
    /1 to create.*1 to update.*2 unchanged.*0 with errors/,
  );
  const rows = dialog.getByTestId('import-rows');
  await expect(rows.locator('tbody tr')).toHaveCount(2);
  await expect(rows.locator('.import-update ins')).toHaveText('Renamed by import');
  await expect(dialog).toContainText('2 unchanged rows are not shown.');
  expect(await storedName(alice, FIRST)).not.toBe('Renamed by import');
  await expectAccessible(alice);
  await snap(alice, 'import-dry-run');

  await dialog.getByRole('button', { name: 'Apply 2 changes' }).click();
  await expect(alice.getByText('Imported: 1 created, 1 updated.')).toBeVisible();
  await expect(dialog).toBeHidden();
  await alice.getByLabel('name Filter Input', { exact: true }).fill('Renamed by import');
  await expect(cell(alice, rowId(String(FIRST)), 'name')).toHaveText('Renamed by import');
  expect(await storedName(alice, LAST + 1000)).toBe('Imported kettle');
});

test('a dry run with errors offers them as a file, and applies only the valid rows when asked', async ({
  openTableAs,
  snap,
}) => {
  const alice = await editProducts(openTableAs);
  const [header, first] = await exportedLines(alice);
  // With unsaved edits in the grid, the import waits until they are saved or discarded.
  await editCell(cell(alice, rowId('1'), 'name'), 'Unsaved name');
  await alice.getByRole('button', { name: 'Import CSV/XLSX' }).click();
  await expect(alice.getByRole('dialog')).toContainText('You have 1 unsaved change.');
  await expect(alice.getByRole('dialog').getByLabel(/^File/)).toHaveCount(0);
  await expectAccessible(alice);
  await snap(alice, 'import-unsaved-first');
  await alice.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  await alice.getByRole('button', { name: 'Discard' }).click();
  await alice.getByRole('dialog').getByRole('button', { name: 'Discard' }).click();
  await expect(alice.getByText('No unsaved changes')).toBeVisible();

  await alice.getByRole('button', { name: 'Import CSV/XLSX' }).click();
  const dialog = await dryRun(alice, [
    header as string,
    (first as string).replace(/^(\d+),([^,]*),([^,]*),(\d+),(\d+),([^,]*)/, '$1,$2,$3,$4,$5,cheap'),
    `${LAST + 2000},SKU-IMPORT-2,Nowhere,11,99999,1.00,JPY,,2026-11-01,false,`,
    `${LAST + 2001},SKU-IMPORT-3,Valid kettle,11,1,1.00,JPY,,2026-11-01,false,`,
  ]);
  await expect(dialog.getByTestId('import-counts')).toContainText('2 with errors');
  await expect(dialog.getByTestId('import-rows')).toContainText(
    '"cheap" is not a valid unit_price.',
  );
  await expect(dialog.getByTestId('import-rows')).toContainText(
    '99999 is not in suppliers (suppliers.id). Choose a value that exists there.',
  );
  await expect(dialog.getByRole('button', { name: 'Apply 1 change', exact: true })).toBeDisabled();
  await expectAccessible(alice);
  await snap(alice, 'import-errors');

  const [download] = await Promise.all([
    alice.waitForEvent('download'),
    dialog.getByRole('link', { name: 'Download errors' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('products-errors.csv');
  const records = parse(await readFile(await download.path()), {
    bom: true,
    columns: true,
  }) as Record<string, string>[];
  expect(records.map((record) => [record.id, record.error])).toEqual([
    [String(FIRST), expect.stringContaining('unit_price')],
    [String(LAST + 2000), expect.stringContaining('supplier_id')],
  ]);

  await dialog.getByRole('button', { name: 'Apply 1 change without errors' }).click();
  await expect(dialog.getByRole('status')).toContainText('The 2 rows with errors were left out');
  await expect(dialog.getByRole('link', { name: 'Download errors' })).toBeVisible();
  await expectAccessible(alice);
  await snap(alice, 'import-rest-left');
  await dialog.getByRole('button', { name: 'Close' }).click();
  expect(await storedName(alice, LAST + 2001)).toBe('Valid kettle');
});

test('a row changed by someone else after the dry run is named, and nothing is written', async ({
  app,
  openTableAs,
  snap,
}) => {
  const alice = await editProducts(openTableAs);
  const [header, first, second] = await exportedLines(alice);
  await alice.getByRole('button', { name: 'Import CSV/XLSX' }).click();
  const dialog = await dryRun(alice, [
    header as string,
    renamed(first as string, 'Second import'),
    renamed(second as string, 'Second import too'),
  ]);
  await expect(dialog.getByTestId('import-counts')).toContainText('2 to update');

  // Someone writing straight to the database, past the app and its lock (a nightly job).
  const database = new pg.Client({ connectionString: app.databaseUrl });
  await database.connect();
  try {
    await database.query('UPDATE master.products SET weight_kg = 9.999 WHERE id = $1', [FIRST + 1]);
  } finally {
    await database.end();
  }

  await dialog.getByRole('button', { name: 'Apply 2 changes' }).click();
  const problem = dialog.getByTestId('import-problem');
  await expect(problem).toContainText('someone else changed, deleted or created a row');
  await expect(problem).toContainText(`Row 3 of the file (key ${FIRST + 1})`);
  expect(await storedName(alice, FIRST)).not.toBe('Second import');
  await expectAccessible(alice);
  await snap(alice, 'import-row-changed-meanwhile');

  await dialog.getByRole('button', { name: 'Run the dry run again' }).click();
  await expect(dialog.getByTestId('import-problem')).toBeHidden();
  await expect(dialog.getByTestId('import-counts')).toContainText('2 to update');
  await expect(dialog.getByTestId('import-rows')).toContainText('9.999');
});

test('an XLSX written by SheetJS (its default output, uncompressed) imports: dry run, apply, the rows stored', async ({
  openTableAs,
}) => {
  const alice = await editProducts(openTableAs);
  // The columns as the export names them: id, sku, name, category_id, supplier_id, unit_price,
  // currency_code, weight_kg, launched_on, discontinued, description.
  const header = ((await exportedLines(alice))[0] as string).split(',');
  // Numbers, booleans, dates and an empty cell as SheetJS types them.
  const sheet = XLSX.utils.aoa_to_sheet([
    header,
    [
      LAST + 3000,
      'SKU-SHEETJS-1',
      'SheetJS kettle',
      32,
      5,
      12.5,
      'JPY',
      1.2,
      new Date(2026, 10, 1),
      false,
      null,
    ],
    [
      LAST + 3001,
      'SKU-SHEETJS-2',
      'SheetJS teapot',
      32,
      5,
      8,
      'JPY',
      null,
      new Date(2026, 10, 2),
      true,
      'From SheetJS',
    ],
  ]);
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, 'products');
  const file: Buffer = XLSX.write(book, { type: 'buffer', bookType: 'xlsx' });

  await alice.getByRole('button', { name: 'Import CSV/XLSX' }).click();
  const dialog = alice.getByRole('dialog');
  await dialog.getByLabel(/^File/).setInputFiles({
    name: 'products.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: file,
  });
  await dialog.getByRole('button', { name: 'Dry run' }).click();
  await expect(dialog.getByTestId('import-counts')).toHaveText(/2 to create.*0 with errors/);
  await dialog.getByRole('button', { name: 'Apply 2 changes' }).click();
  await expect(alice.getByText(/^Imported: 2 created/)).toBeVisible();
  expect(
    await storedRows(alice.request, 'products', [
      { column: 'id', operator: 'greaterThanOrEqual', value: String(LAST + 3000) },
    ]),
  ).toMatchObject([
    {
      sku: 'SKU-SHEETJS-1',
      unit_price: '12.50',
      weight_kg: '1.200',
      launched_on: '2026-11-01',
      discontinued: 'false',
      description: null,
    },
    {
      sku: 'SKU-SHEETJS-2',
      unit_price: '8.00',
      weight_kg: null,
      launched_on: '2026-11-02',
      discontinued: 'true',
      description: 'From SheetJS',
    },
  ]);
});
