import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { cell, editCell, expectLive, rowId, startEditing } from '../support/tablePage';

const REASON = 'Stocktake corrections must go in before 18:00';

test('an admin takes over alice’s lock; alice is told who and why and keeps her edits', async ({
  openTableAs,
  signIn,
  snap,
}) => {
  const alice = await openTableAs('alice', 'stock_levels');
  await startEditing(alice, ['products', 'warehouses']);
  await expectLive(alice);
  const edited = cell(alice, rowId('1', '1'), 'quantity');
  await editCell(edited, '999');

  const admin = await signIn('admin');
  await admin.getByRole('button', { name: 'Admin', exact: true }).click();
  await admin.getByRole('link', { name: 'Locks', exact: true }).click();
  const lock = admin.getByTestId('lock-row-stock_levels');
  await expect(lock).toContainText('alice');
  await expectAccessible(admin);
  await lock.getByRole('button', { name: 'Take over' }).click();
  // Taking over happens on the table page, which then holds the lock.
  await expect(admin.getByTestId('table-title')).toHaveText('stock_levels');
  const dialog = admin.getByRole('dialog');
  await expect(dialog.getByRole('heading')).toHaveText('Take over stock_levels');
  await expectAccessible(admin);
  await dialog.getByRole('textbox').fill(REASON);
  await dialog.getByRole('button', { name: 'Next' }).click();
  await expect(dialog).toContainText('alice loses the lock on stock_levels at once');
  await expectAccessible(admin);
  await snap(admin, 'admin-confirms-take-over');
  await dialog.getByRole('button', { name: 'Take over now' }).click();
  await expect(admin.getByTestId('table-status')).toHaveText('Editing (you)');
  await expect(admin.getByText('You took over stock_levels from alice')).toBeVisible();
  await expectAccessible(admin);

  await expect(alice.getByTestId('lock-lost-cause')).toHaveText(/^admin took it over at /, {
    timeout: 3_000,
  });
  await expect(alice.getByTestId('lock-lost-reason')).toHaveText(`Reason: ${REASON}`);
  await expect(edited).toHaveText('999');
  await expect(alice.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
  // The admin edits now: alice cannot simply start again.
  await expect(alice.getByRole('button', { name: 'Start editing again' })).toBeDisabled();
  await expect(alice.getByTestId('table-status')).toHaveText('Editing');
  await expectAccessible(alice);
  await snap(alice, 'alice-told-who-took-over');

  // The history, filtered to this table and take-overs, names both and the reason.
  await admin.goto('/admin?table=stock_levels&action=take_over');
  const row = admin.getByTestId('history-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Taken over');
  await expect(row).toContainText(REASON);
  await expectAccessible(admin);
  await snap(admin, 'admin-history-take-over');
});
