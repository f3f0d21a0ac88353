import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { cell, editCell, rowId, startEditing, tableRow } from '../support/tablePage';

test('leaving with unsaved edits asks first; signing out ends the lock', async ({
  openTableAs,
  signIn,
  snap,
}) => {
  const alice = await openTableAs('alice', 'regions');
  await startEditing(alice);
  await editCell(cell(alice, rowId('10'), 'name'), 'Kanto area');

  await alice.getByRole('link', { name: 'Sign out' }).click();
  const dialog = alice.getByRole('dialog');
  await expect(dialog).toContainText('You have 1 unsaved change. It will be lost if you leave.');
  await expectAccessible(alice);
  await snap(alice, 'leave-warning');
  await dialog.getByRole('button', { name: 'Stay' }).click();
  await expect(cell(alice, rowId('10'), 'name')).toHaveText('Kanto area');

  await alice.getByRole('link', { name: 'Sign out' }).click();
  await alice.getByRole('dialog').getByRole('button', { name: 'Leave and lose changes' }).click();
  await expect(alice.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expectAccessible(alice);

  const bob = await signIn('bob');
  await expect(tableRow(bob, 'regions')).toHaveAttribute('data-status', 'normal');
});
