import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { openTable, startEditing, tableRow } from '../support/tablePage';

test('when alice finishes editing, bob can start editing the table', async ({ signIn, snap }) => {
  const alice = await signIn('alice');
  const bob = await signIn('bob');

  await openTable(alice, 'price_lists');
  await startEditing(alice, ['currencies']);
  const priceLists = tableRow(bob, 'price_lists');
  await expect(priceLists.getByRole('button', { name: 'Edit', exact: true })).toBeDisabled();

  await alice.getByRole('button', { name: 'Finish editing' }).click();
  await expect(alice.getByRole('button', { name: 'Start editing' })).toBeEnabled();
  await expect(alice.getByTestId('table-status')).toHaveText('Normal');
  await expectAccessible(alice);
  await snap(alice, 'alice-finished');

  await expect(priceLists).toHaveAttribute('data-status', 'normal');
  await expect(tableRow(bob, 'currencies')).toHaveAttribute('data-status', 'normal');
  await priceLists.getByRole('button', { name: 'Edit', exact: true }).click();
  const dialog = bob.getByRole('dialog');
  await expect(dialog.getByTestId('tables-to-lock')).toContainText('currencies');
  await expectAccessible(bob);
  await snap(bob, 'bob-start-editing-dialog');
  // Arriving through Edit stands for pressing Start editing here: closing gives it the focus.
  await bob.keyboard.press('Escape');
  await expect(bob.getByRole('button', { name: 'Start editing' })).toBeFocused();
  await bob.keyboard.press('Enter');
  await dialog.getByRole('button', { name: 'Start editing' }).click();
  await expect(bob.getByTestId('table-status')).toHaveText('Editing (you)');
  await expectAccessible(bob);
  await snap(bob, 'bob-editing-price-lists');
});
