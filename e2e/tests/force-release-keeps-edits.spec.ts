import { expect, test } from '../support/fixtures';
import { cell, editCell, openTable, rowId, startEditing, tableRow } from '../support/tablePage';

test('after an admin force-releases her lock, alice cannot save but keeps her edits', async ({
  signIn,
  snap,
}) => {
  const alice = await signIn('alice');
  await openTable(alice, 'warehouses');
  await startEditing(alice, ['regions']);
  const edited = cell(alice, rowId('1'), 'name');
  await editCell(edited, 'Renamed before the release');

  const admin = await signIn('admin');
  await admin.getByRole('link', { name: 'Locks (admin)' }).click();
  const lock = admin.getByTestId('lock-row-warehouses');
  await expect(lock).toContainText('alice');
  await expect(lock).toContainText('regions');
  await lock.getByRole('button', { name: 'Force release' }).click();
  const dialog = admin.getByRole('dialog');
  await expect(dialog.getByRole('button', { name: 'Next' })).toBeDisabled();
  await dialog.getByRole('textbox').fill('alice is on holiday; the stock import needs the table');
  await dialog.getByRole('button', { name: 'Next' }).click();
  await expect(dialog).toContainText('alice will lose the lock on warehouses at once');
  await snap(admin, 'admin-confirms-force-release');
  await dialog.getByRole('button', { name: 'Force release now' }).click();
  await expect(admin.getByText('The lock on warehouses was released.')).toBeVisible();
  await expect(lock).toHaveCount(0);

  await alice.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(alice.getByTestId('lock-lost')).toContainText('Your lock on warehouses has ended');
  await expect(
    alice.getByText(/^Nothing was saved: your lock on this table has ended/),
  ).toBeVisible();
  await expect(edited).toHaveText('Renamed before the release');
  await expect(edited).toHaveClass(/cell-changed/);
  await expect(alice.getByTestId('change-summary')).toContainText('1 unsaved change');
  await snap(alice, 'alice-save-refused-edits-kept');

  const bob = await signIn('bob');
  const warehouses = tableRow(bob, 'warehouses');
  await expect(warehouses).toHaveAttribute('data-status', 'normal');
  await warehouses.getByRole('button', { name: 'Edit', exact: true }).click();
  await bob.getByRole('dialog').getByRole('button', { name: 'Start editing' }).click();
  await expect(bob.getByTestId('table-status')).toHaveText('Editing (you)');
  await snap(bob, 'bob-editing-warehouses');
});
