import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { storedRows } from '../support/graphql';
import { cell, editCell, rowId, startEditing } from '../support/tablePage';

test('a changed cell, a new row and a deleted row are saved together and stay saved', async ({
  openTableAs,
  snap,
}) => {
  const alice = await openTableAs('alice', 'customers');
  await startEditing(alice, ['regions']);

  await editCell(cell(alice, rowId('1'), 'name'), 'Renamed Trading Co., Ltd.');
  await expect(cell(alice, rowId('1'), 'name')).toHaveClass(/cell-changed/);

  // A new row comes with a free id and opens for typing at its first empty cell; the id can be
  // typed over.
  await alice.getByRole('button', { name: 'Add row' }).click();
  const editor = cell(alice, { newRow: 0 }, 'name').locator('.cell-editor');
  await expect(editor).toBeFocused();
  await expect(cell(alice, { newRow: 0 }, 'id')).toHaveText(/^\d+$/);
  await expectAccessible(alice);
  await editor.fill('Brand New Customer K.K.');
  await editor.press('Enter');
  await editCell(cell(alice, { newRow: 0 }, 'id'), '900001');
  await editCell(cell(alice, { newRow: 0 }, 'region_id'), '10');
  await editCell(cell(alice, { newRow: 0 }, 'registered_on'), '2026-04-01');

  await alice.locator(`[row-id='${rowId('2')}'] .ag-selection-checkbox input`).check();
  await alice.getByRole('button', { name: 'Delete selected row' }).click();
  await expect(cell(alice, rowId('2'), 'name')).toHaveClass(/row-deleted/);
  await expect(alice.getByTestId('change-summary')).toContainText('3 unsaved changes');
  await expectAccessible(alice);
  await snap(alice, 'three-unsaved-changes');

  await alice.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(alice.getByText('Saved: 1 added, 1 changed, 1 deleted.')).toBeVisible();
  await expect(alice.getByText('No unsaved changes')).toBeVisible();

  // After a reload alice is still editing, and the rows are as saved.
  await alice.reload();
  await expect(alice.getByTestId('table-status')).toHaveText('Editing (you)');
  await expect(cell(alice, rowId('1'), 'name')).toHaveText('Renamed Trading Co., Ltd.');
  await expect(cell(alice, rowId('3'), 'name')).toBeVisible();
  await expect(cell(alice, rowId('2'), 'name')).toHaveCount(0);
  await expectAccessible(alice);
  await snap(alice, 'after-reload');

  const bob = await openTableAs('bob', 'customers');
  await expect(cell(bob, rowId('1'), 'name')).toHaveText('Renamed Trading Co., Ltd.');
  await expect(cell(bob, rowId('2'), 'name')).toHaveCount(0);
  // The grid filters on the server: the new row is found by its id.
  await bob.getByLabel('id Filter Input', { exact: true }).filter({ visible: true }).fill('900001');
  await expect(cell(bob, rowId('900001'), 'name')).toHaveText('Brand New Customer K.K.');
  await expect(bob.getByTestId('row-count')).toHaveText('1 row');
  await expectAccessible(bob);
  await snap(bob, 'bob-sees-the-saved-rows');

  const [stored] = await storedRows(bob.request, 'customers', [
    { column: 'id', operator: 'equals', value: '900001' },
  ]);
  expect(stored).toMatchObject({ region_id: '10', registered_on: '2026-04-01' });
});
