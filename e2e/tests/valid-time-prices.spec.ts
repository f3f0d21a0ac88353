import type { Page } from '@playwright/test';
import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { storedRows } from '../support/graphql';
import { cell, editCell, rowId, startEditing } from '../support/tablePage';

// product_prices: PRIMARY KEY (product_id, valid WITHOUT OVERLAPS). Product 11 has prices for
// [2025-01-01,2025-07-01), [2025-07-01,2026-01-01) and [2026-01-01,2026-07-01).
const SECOND_PERIOD = rowId('11', '[2025-07-01,2026-01-01)');

const newRowStatus = (page: Page) =>
  page.locator(
    ".ag-grid-pinned-top-rows-container .ag-row[row-index='t-0'] [data-testid='row-status']",
  );

async function snapAtWidths(
  page: Page,
  snap: (page: Page, name: string) => Promise<void>,
  name: string,
) {
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, `${name}-390`);
  await page.setViewportSize({ width: 1400, height: 900 });
  await snap(page, `${name}-1400`);
}

test('a valid-time table shows periods, refuses an overlapping one with the row it overlaps, and saves it fixed (en and ja)', async ({
  openTableAs,
  snap,
}) => {
  const alice = await openTableAs('alice', 'product_prices');
  await alice.setViewportSize({ width: 1400, height: 900 });
  await startEditing(alice, ['products', 'currencies']);
  await alice.getByRole('spinbutton', { name: 'product_id Filter Input' }).fill('11');
  await expect(alice.getByTestId('row-count')).toHaveText('3 rows');
  // A period reads from its first to its last day: the range's end is exclusive.
  await expect(cell(alice, SECOND_PERIOD, 'valid')).toHaveText('Jul 1, 2025 – Dec 31, 2025');

  await alice.getByRole('button', { name: 'Add row' }).click();
  await alice.keyboard.press('Escape');
  await editCell(cell(alice, { newRow: 0 }, 'product_id'), '11');
  // Typed as the grid shows it, first and last day: it overlaps the second period.
  await editCell(cell(alice, { newRow: 0 }, 'valid'), '2025-12-01 – 2026-02-28');
  await editCell(cell(alice, { newRow: 0 }, 'price'), '12.50');
  await editCell(cell(alice, { newRow: 0 }, 'currency_code'), 'JPY');
  await alice.getByRole('button', { name: 'Save', exact: true }).click();

  await expect(alice.getByText(/^Nothing was saved: 1 row has a problem/)).toBeVisible();
  await expect(newRowStatus(alice)).toContainText(
    'product_prices already has a row for 11 in 2025-07-01 – 2025-12-31. Choose a period that does not overlap it.',
  );
  await expectAccessible(alice);
  await snapAtWidths(alice, snap, 'overlapping-period-refused');

  await alice.getByRole('button', { name: '日本語' }).click();
  await expect(newRowStatus(alice)).toContainText(
    'product_prices には 11 の 2025-07-01 – 2025-12-31 の行が既にあります。重ならない期間にしてください。',
  );
  // The language switch builds the grid's columns anew, without the filter: product 1's rows.
  await expect(cell(alice, rowId('1', '[2025-07-01,2026-01-01)'), 'valid')).toHaveText(
    '2025/07/01 – 2025/12/31',
  );
  await expectAccessible(alice);
  await snapAtWidths(alice, snap, 'overlapping-period-refused-ja');
  await alice.getByRole('button', { name: 'English' }).click();

  // After the last period: saved, and stored as the range it stands for.
  await editCell(cell(alice, { newRow: 0 }, 'valid'), '2026-07-01 – 2026-09-30');
  await alice.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(alice.getByText('Saved: 1 added, 0 changed, 0 deleted.')).toBeVisible();
  await expect(alice.getByText('No unsaved changes')).toBeVisible();
  const stored = await storedRows(alice.request, 'product_prices', [
    { column: 'product_id', operator: 'equals', value: '11' },
  ]);
  expect(stored.map((row) => row.valid).sort()).toEqual([
    '[2025-01-01,2025-07-01)',
    '[2025-07-01,2026-01-01)',
    '[2026-01-01,2026-07-01)',
    '[2026-07-01,2026-10-01)',
  ]);
});
