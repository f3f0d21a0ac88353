import type { Locator, Page } from '@playwright/test';
import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { graphql, storedRows } from '../support/graphql';
import { cell, editCell, startEditing } from '../support/tablePage';

/** The greatest warehouse id stored now, read through the API. */
async function largestWarehouseId(page: Page): Promise<number> {
  const answer = await graphql(
    page.request,
    'query { rows(table: "warehouses", limit: 1, sort: [{ column: "id", direction: desc }]) { rows { values } } }',
  );
  const rowPage = answer.data?.rows as { rows: { values: { id: string } }[] } | undefined;
  return Number(rowPage?.rows[0]?.values.id);
}

/** Moves the mouse over a cell until the grid shows its tooltip (after its delay). */
async function hoverUntilTooltip(target: Locator): Promise<void> {
  const tooltip = target.page().locator('.ag-tooltip');
  await expect(async () => {
    await target.page().mouse.move(0, 0);
    await target.hover({ position: { x: 12, y: 8 } });
    await expect(tooltip).toBeVisible({ timeout: 2_000 });
  }).toPass();
}

test('a new row comes with the next free key, and two new rows with one code are flagged before Save (en and ja, axe)', async ({
  openTableAs,
  snap,
}) => {
  const alice = await openTableAs('alice', 'warehouses');
  await startEditing(alice, ['regions']);
  const largest = await largestWarehouseId(alice);

  // The key is suggested, so the row opens for typing at the first cell still empty.
  await alice.getByRole('button', { name: 'Add row' }).click();
  await expect(cell(alice, { newRow: 0 }, 'code').locator('.cell-editor')).toBeFocused();
  await alice.keyboard.press('Escape');
  await expect(cell(alice, { newRow: 0 }, 'id')).toHaveText(String(largest + 1));
  // A second new row takes the next one: the first new row holds largest + 1.
  await alice.getByRole('button', { name: 'Add row' }).click();
  await expect(cell(alice, { newRow: 0 }, 'code').locator('.cell-editor')).toBeFocused();
  await alice.keyboard.press('Escape');
  await expect(cell(alice, { newRow: 0 }, 'id')).toHaveText(String(largest + 2));
  await expect(cell(alice, { newRow: 1 }, 'id')).toHaveText(String(largest + 1));

  // code is UNIQUE: the same code in both new rows marks both cells, before any Save.
  await editCell(cell(alice, { newRow: 0 }, 'code'), 'WH-NEW');
  await expect(cell(alice, { newRow: 0 }, 'code')).not.toHaveClass(/cell-invalid/);
  await editCell(cell(alice, { newRow: 1 }, 'code'), 'WH-NEW');
  await expect(cell(alice, { newRow: 0 }, 'code')).toHaveClass(/cell-invalid/);
  await expect(cell(alice, { newRow: 1 }, 'code')).toHaveClass(/cell-invalid/);
  await hoverUntilTooltip(cell(alice, { newRow: 1 }, 'code'));
  await expect(alice.locator('.ag-tooltip')).toHaveText(
    'Another new or changed row has this value, and no two rows may share it.',
  );
  await expect(alice.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
  await expectAccessible(alice);
  await snap(alice, 'duplicate-codes-flagged');

  await alice.getByRole('button', { name: '日本語' }).click();
  await expect(cell(alice, { newRow: 0 }, 'code')).toHaveClass(/cell-invalid/);
  await hoverUntilTooltip(cell(alice, { newRow: 0 }, 'code'));
  await expect(alice.locator('.ag-tooltip')).toHaveText(
    '追加・変更した別の行に同じ値があります。この列の値は重複できません。',
  );
  await expectAccessible(alice);
  await snap(alice, 'duplicate-codes-flagged-ja');
  await alice.getByRole('button', { name: 'English' }).click();

  // Another code in one of them clears both; the rows save with the suggested keys.
  await editCell(cell(alice, { newRow: 0 }, 'code'), 'WH-NEW-2');
  await expect(cell(alice, { newRow: 1 }, 'code')).not.toHaveClass(/cell-invalid/);
  for (const newRow of [0, 1]) {
    await editCell(cell(alice, { newRow }, 'name'), `New warehouse ${newRow}`);
    await editCell(cell(alice, { newRow }, 'region_id'), '10');
    await editCell(cell(alice, { newRow }, 'capacity_m3'), '1200');
    await editCell(cell(alice, { newRow }, 'opened_on'), '2026-12-01');
  }
  await alice.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(alice.getByText('Saved: 2 added, 0 changed, 0 deleted.')).toBeVisible();
  const stored = await storedRows(alice.request, 'warehouses', [
    { column: 'id', operator: 'greaterThan', value: String(largest) },
  ]);
  expect(stored.map((row) => [row.id, row.code])).toEqual([
    [String(largest + 1), 'WH-NEW'],
    [String(largest + 2), 'WH-NEW-2'],
  ]);

  // After the save the next new row counts on from the rows just saved.
  await alice.getByRole('button', { name: 'Add row' }).click();
  await expect(cell(alice, { newRow: 0 }, 'code').locator('.cell-editor')).toBeFocused();
  await expect(cell(alice, { newRow: 0 }, 'id')).toHaveText(String(largest + 3));
});
