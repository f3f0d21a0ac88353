import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { cell, editCell, expectLive, rowId, startEditing, tableRow } from '../support/tablePage';

const REASON = 'alice is on holiday; the stock import needs the table';

test('an admin’s force release is shown to alice at once; she keeps her edits but cannot save', async ({
  openTableAs,
  signIn,
  snap,
}) => {
  const alice = await openTableAs('alice', 'warehouses');
  await startEditing(alice, ['regions']);
  await expectLive(alice);
  const edited = cell(alice, rowId('1'), 'name');
  await editCell(edited, 'Renamed before the release');

  const admin = await signIn('admin');
  await admin.getByRole('button', { name: 'Admin', exact: true }).click();
  await admin.getByRole('link', { name: 'Locks', exact: true }).click();
  const lock = admin.getByTestId('lock-row-warehouses');
  await expect(lock).toContainText('alice');
  await expect(lock).toContainText('regions');
  await expect(lock.getByTestId('lease-ends')).toHaveText(/\d:\d\d:\d\d/);
  await expectAccessible(admin);
  const forceRelease = lock.getByRole('button', { name: 'Force release' });
  await forceRelease.click();
  const dialog = admin.getByRole('dialog');
  await expect(dialog.getByRole('button', { name: 'Next' })).toBeDisabled();
  await expectAccessible(admin);
  // Escape closes it, and the focus is back where it was; the admin opens it again.
  await admin.keyboard.press('Escape');
  await expect(forceRelease).toBeFocused();
  await admin.keyboard.press('Enter');
  await dialog.getByRole('textbox').fill(REASON);
  await dialog.getByRole('button', { name: 'Next' }).click();
  await expect(dialog).toContainText('alice will lose the lock on warehouses at once');
  await expectAccessible(admin);
  await snap(admin, 'admin-confirms-force-release');
  await dialog.getByRole('button', { name: 'Force release now' }).click();
  await expect(admin.getByText('The lock on warehouses was released.')).toBeVisible();
  await expect(lock).toHaveCount(0);

  // Told at once, without trying to save: who, and why.
  const banner = alice.getByTestId('lock-lost');
  await expect(banner).toContainText('Your lock on warehouses has ended', { timeout: 3_000 });
  await expect(alice.getByTestId('lock-lost-cause')).toHaveText(/^admin force-released it at /);
  await expect(alice.getByTestId('lock-lost-reason')).toHaveText(`Reason: ${REASON}`);
  await expect(alice.getByTestId('table-status')).toHaveText('Normal');
  await expect(edited).toHaveText('Renamed before the release');
  await expect(edited).toHaveClass(/cell-changed/);
  await expect(alice.getByTestId('change-summary')).toContainText('1 unsaved change');
  await expect(alice.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
  await alice.keyboard.press('Control+s');
  await expect(
    alice.getByText(/^Nothing was saved: your lock on this table has ended/),
  ).toBeVisible();
  await expectAccessible(alice);
  await snap(alice, 'alice-told-edits-kept');

  // The history records it, with the reason.
  await expect(admin.getByTestId('history-row').first()).toContainText('Force-released');
  await expect(admin.getByTestId('history-row').first()).toContainText(REASON);
  await expectAccessible(admin);
  await snap(admin, 'admin-history-after-force-release');

  const bob = await signIn('bob');
  const warehouses = tableRow(bob, 'warehouses');
  await expect(warehouses).toHaveAttribute('data-status', 'normal');
  await warehouses.getByRole('button', { name: 'Edit', exact: true }).click();
  await bob.getByRole('dialog').getByRole('button', { name: 'Start editing' }).click();
  await expect(bob.getByTestId('table-status')).toHaveText('Editing (you)');
  await expectAccessible(bob);
  await snap(bob, 'bob-editing-warehouses');
});
