import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { cell, editCell, expectLive, openTable, rowId, startEditing } from '../support/tablePage';

test('alice moves her editing to a second tab and back; the first keeps its edits meanwhile', async ({
  openTableAs,
  snap,
}) => {
  const first = await openTableAs('alice', 'price_list_items');
  await startEditing(first, ['price_lists', 'products']);
  await expectLive(first);
  const edited = cell(first, rowId('1', '1'), 'min_quantity');
  await editCell(edited, '12');

  // A second tab of the same browser holds no token: the lock is hers, but not this tab's.
  const second = await first.context().newPage();
  await openTable(second, 'price_list_items');
  await expectLive(second);
  await expect(second.getByTestId('editing-elsewhere')).toBeVisible();
  await expect(second.getByRole('button', { name: 'Start editing' })).toHaveCount(0);
  await expectAccessible(second);
  await snap(second, 'second-tab-editing-elsewhere');
  await second.getByRole('button', { name: 'Continue editing here' }).click();
  await expect(second.getByRole('button', { name: 'Finish editing' })).toBeVisible();
  await expect(second.getByTestId('editing-elsewhere')).toHaveCount(0);

  await expect(first.getByTestId('lock-lost-cause')).toHaveText(
    /^You continued editing in another tab or on another device at /,
  );
  await expect(edited).toHaveText('12');
  await expect(first.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
  await expectAccessible(first);
  await snap(first, 'first-tab-continued-elsewhere');

  // Back in the first tab: it takes the lock back with its edits, and can save them.
  await first.getByRole('button', { name: 'Start editing again' }).click();
  await expect(first.getByTestId('lock-lost')).toHaveCount(0);
  await expect(second.getByTestId('lock-lost-cause')).toHaveText(/^You continued editing/);
  await first.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(first.getByText('No unsaved changes')).toBeVisible();

  // A reload of the tab that holds the lock carries on editing there.
  await first.reload();
  await expect(first.getByRole('button', { name: 'Finish editing' })).toBeVisible();
  await expect(first.getByTestId('editing-elsewhere')).toHaveCount(0);
  await expect(cell(first, rowId('1', '1'), 'min_quantity')).toHaveText('12');
});
