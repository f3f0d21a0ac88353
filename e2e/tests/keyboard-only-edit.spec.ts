import { expectAccessible } from '../support/accessibility';
import { DEMO_PASSWORD, expect, test } from '../support/fixtures';
import { storedRows } from '../support/graphql';
import { pressUntilFocused } from '../support/keyboard';
import { SSO_PROVIDER_NAME } from '../support/singleSignOn';
import { cell, rowId, startEditing, tableRow } from '../support/tablePage';

test('alice opens a table, edits two cells, saves and finishes with the keyboard alone', async ({
  newBrowser,
  snap,
}) => {
  const alice = await newBrowser();
  const { keyboard } = alice;
  await alice.goto('/login');
  // With single sign-on offered, nothing is focused at first: its link comes first, then the
  // password form.
  const signInWithSso = alice.getByRole('link', { name: `Sign in with ${SSO_PROVIDER_NAME}` });
  await expect(signInWithSso).toBeVisible();
  await pressUntilFocused(signInWithSso, 'Tab');
  await keyboard.press('Tab');
  await expect(alice.getByLabel('User name')).toBeFocused();
  await keyboard.type('alice');
  await keyboard.press('Tab');
  await keyboard.type(DEMO_PASSWORD);
  await keyboard.press('Enter');
  await expect(alice.getByTestId('current-user')).toContainText('alice');

  // The tables page: narrow the list by name, then open the table.
  const categories = tableRow(alice, 'categories');
  await expect(categories).toBeVisible();
  await pressUntilFocused(alice.getByRole('searchbox', { name: 'Filter by name' }), 'Tab');
  await keyboard.type('categories');
  await expect(alice.getByTestId(/^table-row-/)).toHaveCount(1);
  await expectAccessible(alice);
  await pressUntilFocused(categories.getByRole('link', { name: 'categories' }), 'Tab');
  await keyboard.press('Enter');
  await expect(alice.getByTestId('table-title')).toHaveText('categories');
  await expect(cell(alice, rowId('1'), 'name')).toHaveText('Food');
  await expectAccessible(alice);

  // The dialog takes the focus (on its safe choice), keeps it, and gives it back when closed.
  const startEditing = alice.getByRole('button', { name: 'Start editing' });
  await pressUntilFocused(startEditing, 'Tab');
  await keyboard.press('Enter');
  const dialog = alice.getByRole('dialog');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectAccessible(alice);
  await keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(startEditing).toBeFocused();
  await keyboard.press('Enter');
  await pressUntilFocused(dialog.getByRole('button', { name: 'Start editing' }), 'Tab');
  await keyboard.press('Enter');
  await expect(alice.getByTestId('table-status')).toHaveText('Editing (you)');
  await expectAccessible(alice);

  // Into the grid with Tab, to a cell with the arrows. Backspace opens it empty; Enter keeps the
  // new value and goes down a row.
  const food = cell(alice, rowId('1'), 'name');
  await pressUntilFocused(alice.getByRole('columnheader').first(), 'Tab');
  await pressUntilFocused(
    alice.getByRole('columnheader', { name: 'name', exact: true }),
    'ArrowRight',
  );
  await pressUntilFocused(food, 'ArrowDown');
  await keyboard.press('Backspace');
  const editor = alice.locator('.cell-editor');
  await expect(editor).toBeFocused();
  await expect(editor).toHaveValue('');
  await expectAccessible(alice);
  await keyboard.type('Food and groceries');
  await keyboard.press('Enter');
  const beverages = cell(alice, rowId('2'), 'name');
  await expect(beverages).toBeFocused();

  // Enter opens a cell to amend its value; Tab keeps it and opens the next cell, whose editor
  // Escape closes without a change.
  await keyboard.press('Enter');
  await expect(editor).toHaveValue('Beverages');
  await keyboard.type(' and drinks');
  await keyboard.press('Tab');
  // parent_id is a foreign key: its editor is the value help's combobox, over the cell.
  await expect(alice.getByRole('combobox', { name: 'parent_id' })).toBeFocused();
  await keyboard.press('Escape');
  await expect(editor).toHaveCount(0);
  await expect(cell(alice, rowId('2'), 'parent_id')).toBeFocused();
  await expect(food).toHaveText('Food and groceries');
  await expect(beverages).toHaveText('Beverages and drinks');
  await expect(alice.getByTestId('change-summary')).toContainText('2 unsaved changes');
  await expectAccessible(alice);
  await snap(alice, 'two-cells-edited-by-keyboard');

  // The grid is one stop in the Tab order: one Shift+Tab leaves it for the toolbar above.
  const addRow = alice.getByRole('button', { name: 'Add row' });
  await keyboard.press('Shift+Tab');
  await expect(addRow).toBeFocused();
  await pressUntilFocused(alice.getByRole('button', { name: 'Save', exact: true }), 'Shift+Tab');
  await keyboard.press('Enter');
  await expect(alice.getByText('Saved: 0 added, 2 changed, 0 deleted.')).toBeVisible();
  await expect(alice.getByText('No unsaved changes')).toBeVisible();
  await expectAccessible(alice);

  // Tabbing back into the grid returns to the cell left last.
  await pressUntilFocused(addRow, 'Tab');
  await keyboard.press('Tab');
  await expect(cell(alice, rowId('2'), 'parent_id')).toBeFocused();
  await pressUntilFocused(alice.getByRole('button', { name: 'Finish editing' }), 'Shift+Tab');
  await keyboard.press('Enter');
  await expect(alice.getByTestId('table-status')).toHaveText('Normal');
  await expect(startEditing).toBeEnabled();
  await expectAccessible(alice);
  await snap(alice, 'finished-by-keyboard');

  const stored = await storedRows(alice.request, 'categories', [
    { column: 'id', operator: 'lessThanOrEqual', value: '2' },
  ]);
  expect(stored.map((row) => row.name)).toEqual(['Food and groceries', 'Beverages and drinks']);
});

test('alice adds and removes a row, deletes a row and undoes it, with the keyboard', async ({
  openTableAs,
}) => {
  const alice = await openTableAs('alice', 'categories');
  await startEditing(alice);
  const { keyboard } = alice;

  // A new row opens for typing; Enter keeps the value and goes down to the first stored row.
  const addRow = alice.getByRole('button', { name: 'Add row' });
  await pressUntilFocused(addRow, 'Tab');
  await keyboard.press('Enter');
  // The id comes suggested: the row opens at its first empty cell, the name.
  const editor = cell(alice, { newRow: 0 }, 'name').locator('.cell-editor');
  await expect(editor).toBeFocused();
  await keyboard.type('Snacks');
  await keyboard.press('Enter');
  await expect(cell(alice, rowId('1'), 'name')).toBeFocused();
  await keyboard.press('ArrowUp');
  await expect(cell(alice, { newRow: 0 }, 'name')).toHaveText('Snacks');

  // Enter takes the focus into a cell's button, and Escape back out.
  const newRowStatus = cell(alice, { newRow: 0 }, '__status');
  await pressUntilFocused(newRowStatus, 'ArrowLeft');
  await keyboard.press('Enter');
  await expect(newRowStatus.getByRole('button', { name: 'Remove' })).toBeFocused();
  await keyboard.press('Escape');
  await expect(newRowStatus).toBeFocused();
  await keyboard.press('Enter');
  await keyboard.press('Enter');
  await expect(newRowStatus).toHaveCount(0);
  const foodStatus = cell(alice, rowId('1'), '__status');
  await expect(foodStatus).toBeFocused();

  // Space selects the row; the toolbar above deletes it, once it says so (a disabled button
  // takes no focus: Shift+Tab pressed before would pass it by).
  await keyboard.press('Space');
  const deleteSelected = alice.getByRole('button', { name: 'Delete selected row' });
  await expect(deleteSelected).toBeEnabled();
  await keyboard.press('Shift+Tab');
  await expect(deleteSelected).toBeFocused();
  await keyboard.press('Enter');
  await expect(cell(alice, rowId('1'), 'name')).toHaveClass(/row-deleted/);
  await expectAccessible(alice);

  // Back into the grid, to the same cell; its Undo is pressed with Space.
  await pressUntilFocused(foodStatus, 'Tab');
  await keyboard.press('Enter');
  await expect(foodStatus.getByRole('button', { name: 'Undo' })).toBeFocused();
  await keyboard.press('Space');
  await expect(foodStatus).toBeFocused();
  await expect(alice.getByText('No unsaved changes')).toBeVisible();
  await expect(cell(alice, rowId('1'), 'name')).not.toHaveClass(/row-deleted/);
  await expect(
    alice.locator(`[row-id='${rowId('1')}'] .ag-selection-checkbox input`),
  ).not.toBeChecked();
});
