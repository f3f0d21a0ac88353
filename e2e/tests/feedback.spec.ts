import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { cell, editCell, openTable, rowId, startEditing } from '../support/tablePage';

test('the tab names the table and its unsaved changes; an error notice sits above the grid and goes once the save goes through; offline, the lock’s end is counted down', async ({
  signIn,
  snap,
}) => {
  const alice = await signIn('alice');
  await expect(alice).toHaveTitle('Master tables — tablelock');
  await openTable(alice, 'price_lists');
  await expect(alice).toHaveTitle('price_lists — tablelock');
  await startEditing(alice, ['currencies']);

  // Price list 1, whose name no other spec reads: this save is not undone, and the worker's
  // other specs share its database.
  await editCell(cell(alice, rowId('1'), 'name'), 'Standard 2026 (JPY), checked');
  await expect(alice).toHaveTitle('• price_lists — tablelock');
  // No currency ZZZ: only the database can tell.
  await editCell(cell(alice, rowId('1'), 'currency_code'), 'ZZZ');
  await alice.getByRole('button', { name: 'Save', exact: true }).click();
  const errors = alice.locator('.notice-error');
  await expect(errors).toHaveCount(1);
  const notices = await alice.getByTestId('notices').boundingBox();
  const grid = await alice.locator('.ag-root-wrapper').boundingBox();
  expect(
    notices && grid && notices.y + notices.height <= grid.y,
    'the notice covers the grid',
  ).toBe(true);
  await expectAccessible(alice);
  await snap(alice, 'save-error-above-grid');

  await editCell(cell(alice, rowId('1'), 'currency_code'), 'JPY');
  await alice.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(alice.locator('.notice-success')).toHaveCount(1);
  await expect(errors).toHaveCount(0);
  await expect(alice).toHaveTitle('price_lists — tablelock');

  // The network goes: the lock runs out unless a renewal gets through, and the page says when.
  await alice.context().setOffline(true);
  const lost = alice.getByTestId('connection-lost');
  await expect(lost).toContainText(/Your lock ends in \d+ s unless the connection comes back/);
  await expect(alice.getByTestId('lock-summary')).not.toContainText('Nobody else can change it');
  await expectAccessible(alice);
  await snap(alice, 'connection-lost');
  await alice.context().setOffline(false);
  await expect(lost).toHaveCount(0);
  // What failed meanwhile ("the server could not be reached") is over too.
  await expect(errors).toHaveCount(0);
  await expect(alice.getByTestId('lock-summary')).toContainText('Nobody else can change it');
});
