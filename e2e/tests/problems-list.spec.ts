import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { storedRows } from '../support/graphql';
import { expectNoSidewaysScroll } from '../support/screenFit';
import { cell, editCell, rowId, startEditing } from '../support/tablePage';

// Three rows of products, each refused by another rule of the database; the grid's first rows,
// so that no edit scrolls the grid under the next one.
const FK = { row: rowId('1'), column: 'category_id', value: '99999' };
const UNIQUE = { row: rowId('2'), column: 'sku', value: 'SKU-000003' };
const CHECK = { row: rowId('3'), column: 'unit_price', value: '-5' };

test('Check shows the problems of 3 bad rows (FK, UNIQUE, CHECK) at once, writing nothing; the list and F8 go to their cells; in en, ja and on a phone', async ({
  openTableAs,
  snap,
}) => {
  const alice = await openTableAs('alice', 'products');
  const readRows = () =>
    storedRows(alice.request, 'products', [
      { column: 'id', operator: 'lessThanOrEqual', value: '3' },
    ]);
  const before = await readRows();
  await startEditing(alice, ['categories']);
  await expect(alice.getByRole('button', { name: 'Problems (0)' })).toBeVisible();

  for (const bad of [FK, UNIQUE, CHECK])
    await editCell(cell(alice, bad.row, bad.column), bad.value);
  await alice.getByRole('button', { name: 'Check', exact: true }).click();

  await expect(alice.getByText(/^Checked: 3 problems keep the changes from saving/)).toBeVisible();
  const problems = alice.getByRole('button', { name: 'Problems (3)' });
  await expect(problems).toHaveAttribute('aria-expanded', 'true');
  const list = alice.getByRole('region', { name: 'Problems' }).getByRole('listitem');
  await expect(list).toHaveText([
    /^id=1 · category_id99999 is not in categories \(categories\.id\)\. Choose a value that exists there\.$/,
    /^id=2 · skuSKU-000003 is already used by row .+ of products\. Choose another value\.$/,
    /^id=3 · unit_priceunit_price must be at least 0\.$/,
  ]);
  for (const bad of [FK, UNIQUE, CHECK]) {
    await expect(cell(alice, bad.row, bad.column)).toHaveClass(/cell-error/);
  }
  // A trial: nothing was written, every change is still pending.
  expect(await readRows()).toEqual(before);
  await expect(alice.getByTestId('change-summary')).toContainText('3 unsaved changes');
  await expectAccessible(alice);
  await snap(alice, 'problems-after-check');

  // F8 from anywhere (here the toolbar) goes to the next problem's cell, Shift+F8 back, round.
  await alice.keyboard.press('F8');
  await expect(cell(alice, FK.row, FK.column)).toBeFocused();
  await alice.keyboard.press('F8');
  await expect(cell(alice, UNIQUE.row, UNIQUE.column)).toBeFocused();
  await alice.keyboard.press('Shift+F8');
  await expect(cell(alice, FK.row, FK.column)).toBeFocused();
  await alice.keyboard.press('Shift+F8');
  await expect(cell(alice, CHECK.row, CHECK.column)).toBeFocused();
  // A problem of the list goes to its cell.
  await list.nth(1).getByRole('button').click();
  await expect(cell(alice, UNIQUE.row, UNIQUE.column)).toBeFocused();

  // A save refuses the same rows, and the list still names them.
  await alice.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(alice.getByText(/^Nothing was saved: 3 rows have problems/)).toBeVisible();
  await expect(problems).toBeVisible();
  await expect(list).toHaveCount(3);
  expect(await readRows()).toEqual(before);
  await expectAccessible(alice);

  await alice.getByRole('button', { name: '日本語' }).click();
  const problemsJa = alice.getByRole('button', { name: '問題 (3)' });
  await expect(problemsJa).toBeVisible();
  const listJa = alice.getByRole('region', { name: '問題' }).getByRole('listitem');
  await expect(listJa).toHaveText([
    /^id=1 · カテゴリ99999 は categories にありません（categories\.id）。存在する値を選んでください。$/,
    /^id=2 · SKUSKU-000003 は products の行 .+ で既に使われています。別の値にしてください。$/,
    /^id=3 · 価格unit_price は 0 以上にしてください。$/,
  ]);
  await alice.getByRole('button', { name: 'チェック', exact: true }).click();
  await expect(
    alice.getByText(/^チェックしました。3 件の問題があるため保存できません。/),
  ).toBeVisible();
  // The language builds the grid anew, which may or may not keep the cell focused before: F8
  // starts from a cell of the new grid past the last problem, and wraps round to the first.
  await expect(alice.getByRole('columnheader', { name: '変更', exact: true })).toBeVisible();
  await cell(alice, rowId('4'), 'name').click();
  await expect(cell(alice, rowId('4'), 'name')).toBeFocused();
  await alice.keyboard.press('F8');
  await expect(cell(alice, FK.row, FK.column)).toBeFocused();
  await expectAccessible(alice);
  await snap(alice, 'problems-after-check-ja');

  // On a phone the list opens below the toolbar's buttons, inside the screen.
  await alice.setViewportSize({ width: 390, height: 844 });
  await expect(problemsJa).toBeInViewport({ ratio: 1 });
  await expect(listJa.first()).toBeInViewport();
  await expectNoSidewaysScroll(alice);
  await expectAccessible(alice);
  await snap(alice, 'problems-390-ja');

  // Escape closes the list; the button opens it again.
  await listJa.first().getByRole('button').focus();
  await alice.keyboard.press('Escape');
  await expect(listJa).toHaveCount(0);
  await expect(problemsJa).toHaveAttribute('aria-expanded', 'false');
});
