import { readFile } from 'node:fs/promises';
import type { Request } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';

interface RowSort {
  column: string;
  direction: 'asc' | 'desc';
}

test('a viewer exports the filtered, sorted grid as CSV: every matching row, in the grid’s order', async ({
  openTableAs,
  snap,
}) => {
  const carol = await openTableAs('carol', 'products');
  await carol.getByLabel('name Filter Input', { exact: true }).fill('green tea');
  await expect(carol.getByTestId('row-count')).toHaveText('10,000 rows');
  const priceHeader = carol.getByRole('columnheader', { name: 'unit_price', exact: true });
  await priceHeader.click();
  await priceHeader.click();
  await expect(priceHeader).toHaveAttribute('aria-sort', 'descending');
  const exportCsv = carol.getByRole('link', { name: 'Export CSV' });
  // The link follows the grid once the rows of the new sort have arrived.
  await expect(exportCsv).toHaveAttribute('href', /unit_price.+desc.+green\+tea/);
  await expectAccessible(carol);
  await snap(carol, 'export-filtered-view');

  const [download] = await Promise.all([carol.waitForEvent('download'), exportCsv.click()]);
  // Named by the day, so that exports of different days do not overwrite each other.
  expect(download.suggestedFilename()).toMatch(/^products_\d{4}-\d{2}-\d{2}\.csv$/);
  const bytes = await readFile(await download.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const records = parse(bytes, { bom: true, columns: true }) as Record<string, string>[];
  expect(records).toHaveLength(10_000);
  expect(records.every((row) => row.name?.toLowerCase().includes('green tea'))).toBe(true);
  const order = records.map((row) => [Number(row.unit_price), Number(row.id)] as const);
  const sorted = [...order].sort(([priceA, idA], [priceB, idB]) => priceB - priceA || idA - idB);
  expect(order).toEqual(sorted);
});

test('scrolling the sorted grid reads the next block after the last one’s cursor', async ({
  openTableAs,
}) => {
  const carol = await openTableAs('carol', 'products');
  const nameHeader = carol.getByRole('columnheader', { name: 'name', exact: true });
  await nameHeader.click();
  await expect(nameHeader).toHaveAttribute('aria-sort', 'ascending');
  await expect(carol.getByRole('link', { name: 'Export CSV' })).toHaveAttribute('href', /name/);
  const nextBlock = carol.waitForRequest((request) => {
    const body = request.postDataJSON() as { variables?: { after?: string } } | null;
    return request.url().endsWith('/graphql') && typeof body?.variables?.after === 'string';
  });
  // Rows are 34 px high: past the first block of 100.
  await carol.locator('.ag-grid-scrolling-container .ag-row').first().hover();
  await carol.mouse.wheel(0, 34 * 105);
  await nextBlock;
  await expect(carol.locator('.ag-grid-scrolling-container [row-index="110"]')).toBeVisible();
});

test('a late answer for the sort before does not take the export link back to it', async ({
  openTableAs,
}) => {
  const carol = await openTableAs('carol', 'products');
  const priceSortOf = (request: Request) =>
    (request.postDataJSON() as { variables?: { sort?: RowSort[] } } | null)?.variables?.sort?.find(
      (sort) => sort.column === 'unit_price',
    )?.direction;
  // The rows of the ascending sort are held until those of the descending one have arrived, as
  // a slow answer on a busy network would be.
  let descendingArrived = () => {};
  const descendingAnswered = new Promise<void>((resolve) => {
    descendingArrived = resolve;
  });
  await carol.route('**/graphql', async (route) => {
    const direction = priceSortOf(route.request());
    if (direction === undefined) return route.continue();
    const answer = await route.fetch();
    if (direction === 'asc') await descendingAnswered;
    await route.fulfill({ response: answer });
    if (direction === 'desc') descendingArrived();
  });
  const ascendingAnswered = carol.waitForResponse(
    (response) => priceSortOf(response.request()) === 'asc',
  );
  const priceHeader = carol.getByRole('columnheader', { name: 'unit_price', exact: true });
  const ascendingAsked = carol.waitForRequest((request) => priceSortOf(request) === 'asc');
  await priceHeader.click();
  await ascendingAsked;
  await priceHeader.click();
  await expect(priceHeader).toHaveAttribute('aria-sort', 'descending');
  const exportCsv = carol.getByRole('link', { name: 'Export CSV' });
  await expect(exportCsv).toHaveAttribute('href', /unit_price.+desc/);
  await ascendingAnswered;
  // Once the page has handled that answer and drawn a frame, the link must still be the grid's.
  await carol.evaluate(
    'new Promise((done) => setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(done))))',
  );
  await expect(exportCsv).toHaveAttribute('href', /unit_price.+desc/);
});
