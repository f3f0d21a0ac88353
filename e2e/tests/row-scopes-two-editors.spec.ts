import type { Page } from '@playwright/test';
import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { graphql } from '../support/graphql';
import { brokenLabels } from '../support/screenFit';
import { cell, editCell, expectLive, tableRow } from '../support/tablePage';

// products' rows by category (the demo data: category (11, 12, 13, 21, …)[1 + id % 10]).
const RICE_ROW = '10'; // category 11, Rice and noodles
const TEA_ROW = '3'; // category 21, Tea
const SEASONING_ROW = '1'; // category 12: nobody's

/** Filters the grid by category ('' for none), and waits for the rows. */
// Row counts as other specs running at once leave them: they add a few products of their own.
const ONE_CATEGORY = '10,0\\d\\d rows';
const ALL_PRODUCTS = '100,0\\d\\d rows';

async function filterCategory(page: Page, category: string, rows: string) {
  await page.getByRole('spinbutton', { name: 'category_id Filter Input' }).fill(category);
  await expect(page.getByTestId('row-count')).toHaveText(new RegExp(`^${rows}$`));
}

/** Opens "Edit these rows" on a grid filtered to one category, which it proposes. */
async function openScopeDialog(page: Page, category: string, label: string, rows: string) {
  await page.getByRole('button', { name: 'Edit these rows' }).click();
  const dialog = page.getByRole('dialog');
  const value = dialog.getByTestId(`scope-value-${category}`);
  await expect(value).toContainText(label);
  await expect(value).toContainText(new RegExp(rows));
  await expect(dialog.getByTestId('scope-total')).toHaveText(new RegExp(`^${rows} in all$`));
  return dialog;
}

test('alice and bob edit two categories of products at once: each sees the other’s rows read-only with the holder’s name (1400 and 390 px, en and ja, axe)', async ({
  signIn,
  openTableAs,
  snap,
}) => {
  const admin = await signIn('admin');
  try {
    await admin.getByRole('button', { name: 'Admin', exact: true }).click();
    await admin.getByRole('link', { name: 'Table settings' }).click();
    await admin
      .getByLabel('products: column whose values editors take as row scopes')
      .fill('category_id');
    await admin.getByRole('button', { name: 'Save the policy of products' }).click();
    await expect(admin.getByText('Policy of products saved.')).toBeVisible();

    const alice = await openTableAs('alice', 'products');
    await alice.setViewportSize({ width: 1400, height: 900 });
    await expectLive(alice);
    await filterCategory(alice, '11', ONE_CATEGORY);
    const aliceDialog = await openScopeDialog(alice, '11', 'Rice and noodles', ONE_CATEGORY);
    await expectAccessible(alice);
    await snap(alice, 'scope-dialog-1400');
    await aliceDialog.getByRole('button', { name: 'Edit these rows' }).click();
    await expect(alice.getByTestId('lock-summary')).toContainText(
      'You are editing the rows whose category_id is 11',
    );

    const bob = await openTableAs('bob', 'products');
    await expectLive(bob);
    await filterCategory(bob, '21', ONE_CATEGORY);
    // On a phone. Asking for alice's category too is refused, naming her and her rows.
    await bob.setViewportSize({ width: 390, height: 844 });
    const bobDialog = await openScopeDialog(bob, '21', 'Tea', ONE_CATEGORY);
    await bobDialog.getByLabel('Add a value of category_id').fill('11');
    await bobDialog.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(bobDialog.getByTestId('scope-value-11')).toContainText('being edited by alice');
    await expect(bobDialog).toBeInViewport({ ratio: 1 });
    expect(await brokenLabels(bob, '.dialog .button')).toEqual([]);
    await expectAccessible(bob);
    await snap(bob, 'scope-dialog-390');
    await bobDialog.getByRole('button', { name: 'Edit these rows' }).click();
    // The refusal's notice (the table's own edit block says the same beside its buttons).
    await expect(
      bob.getByText(/^Could not start editing: Being edited by alice \(rows 11\)/),
    ).toBeVisible();
    await expect(bobDialog).toHaveCount(0);

    await bob.getByRole('button', { name: 'Edit these rows' }).click();
    await expect(bobDialog.getByTestId('scope-value-21')).toContainText(new RegExp(ONE_CATEGORY));
    await bobDialog.getByRole('button', { name: 'Edit these rows' }).click();
    await expect(bob.getByTestId('lock-summary')).toContainText(
      'You are editing the rows whose category_id is 21',
    );
    await expect(bob.getByTestId('lock-summary')).toContainText('alice: 11 · bob: 21');

    // Each sees the other's rows, and nobody's, read-only; their own editable.
    await filterCategory(alice, '', ALL_PRODUCTS);
    await expect(cell(alice, TEA_ROW, '__holder')).toHaveText('bob');
    await expect(cell(alice, RICE_ROW, '__holder')).toHaveText('alice');
    await expect(cell(alice, SEASONING_ROW, '__holder')).toHaveText('');
    await expect(cell(alice, TEA_ROW, 'name')).toHaveClass(/cell-out-of-scope/);
    await expect(cell(alice, SEASONING_ROW, 'name')).toHaveClass(/cell-out-of-scope/);
    await expect(cell(alice, RICE_ROW, 'name')).not.toHaveClass(/cell-out-of-scope/);
    await cell(alice, TEA_ROW, 'name').dblclick();
    await expect(alice.locator('.cell-editor')).toHaveCount(0);
    await cell(alice, RICE_ROW, 'name').dblclick();
    await expect(alice.locator('.cell-editor')).toBeFocused();
    await alice.keyboard.press('Escape');
    await expect(alice.locator('.cell-editor')).toHaveCount(0);

    await bob.setViewportSize({ width: 1400, height: 900 });
    await filterCategory(bob, '', ALL_PRODUCTS);
    await expect(cell(bob, RICE_ROW, '__holder')).toHaveText('alice');
    await expect(cell(bob, RICE_ROW, 'name')).toHaveClass(/cell-out-of-scope/);
    await expect(cell(bob, TEA_ROW, 'name')).not.toHaveClass(/cell-out-of-scope/);
    await bob.setViewportSize({ width: 390, height: 844 });
    await expect(cell(bob, RICE_ROW, '__holder')).toHaveText('alice');
    await expectAccessible(bob);
    await snap(bob, 'bob-editing-390');

    // A new row of alice's starts in her category.
    await alice.getByRole('button', { name: 'Add row' }).click();
    await expect(alice.locator('.cell-editor')).toBeFocused();
    await alice.keyboard.press('Escape');
    await expect(cell(alice, { newRow: 0 }, 'category_id')).toContainText('11');
    await expectAccessible(alice);
    await snap(alice, 'alice-editing-1400');
    await alice.getByRole('button', { name: 'Discard' }).click();
    await alice.getByRole('dialog').getByRole('button', { name: 'Discard' }).click();

    // alice saves a row of hers while bob types into one of his: his typing is not cut off,
    // and once he leaves the cell he sees her row as saved, without a reload.
    await bob.setViewportSize({ width: 1400, height: 900 });
    await expect(cell(bob, RICE_ROW, 'name')).toHaveText('Value rice #10');
    await cell(bob, TEA_ROW, 'name').dblclick();
    const bobEditor = bob.locator('.cell-editor');
    await expect(bobEditor).toBeFocused();
    await bobEditor.fill('Tea by bob');
    await editCell(cell(alice, RICE_ROW, 'name'), 'Rice by alice');
    await alice.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(alice.getByText('Saved: 0 added, 1 changed, 0 deleted.')).toBeVisible();
    await expect(bobEditor).toHaveValue('Tea by bob');
    await bobEditor.press('Enter');
    await expect(cell(bob, RICE_ROW, 'name')).toHaveText('Rice by alice');
    await expect(cell(bob, TEA_ROW, 'name')).toHaveText('Tea by bob');
    // And his save reaches her.
    await bob.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(bob.getByText('Saved: 0 added, 1 changed, 0 deleted.')).toBeVisible();
    await expect(cell(alice, TEA_ROW, 'name')).toHaveText('Tea by bob');

    // The Tables page names who edits which part.
    await admin.goto('/tables');
    await expect(tableRow(admin, 'products').getByTestId('editor')).toHaveText(
      'alice: 11 · bob: 21',
    );

    await alice.getByRole('button', { name: '日本語' }).click();
    await expect(alice.getByRole('columnheader', { name: '編集者' })).toBeVisible();
    await expect(cell(alice, TEA_ROW, '__holder')).toHaveText('bob');
    await expectAccessible(alice);
    await snap(alice, 'alice-editing-1400-ja');
    await alice.getByRole('button', { name: 'English' }).click();

    await alice.getByRole('button', { name: 'Finish editing' }).click();
    await bob.getByRole('button', { name: 'Finish editing' }).click();
    await expect(bob.getByTestId('lock-summary')).toHaveText('Nobody is editing this table.');
    await alice.getByRole('button', { name: 'Start editing' }).click();
    await alice.getByRole('dialog').getByRole('button', { name: 'Start editing' }).click();
    await editCell(cell(alice, RICE_ROW, 'name'), 'Value rice #10');
    await editCell(cell(alice, TEA_ROW, 'name'), 'Value green tea #3');
    await alice.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(alice.getByText('Saved: 0 added, 2 changed, 0 deleted.')).toBeVisible();
    await alice.getByRole('button', { name: 'Finish editing' }).click();
  } finally {
    await graphql(
      admin.request,
      'mutation { setTablePolicy(table: "products", policy: { rowLockColumn: null }) { table } }',
    );
  }
});
