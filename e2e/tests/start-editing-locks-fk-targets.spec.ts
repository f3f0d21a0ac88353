import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { openTable, startEditing, tableRow } from '../support/tablePage';

const FK_TARGETS = ['categories', 'currencies', 'suppliers'];

test('starting to edit a table locks it and its FK targets for everyone else', async ({
  signIn,
  snap,
}) => {
  const alice = await signIn('alice');
  const bob = await signIn('bob');

  await openTable(alice, 'products');
  await startEditing(alice, FK_TARGETS);
  await snap(alice, 'alice-editing-products');

  // Bob's tables page refreshes by itself.
  const products = tableRow(bob, 'products');
  await expect(products).toHaveAttribute('data-status', 'editing');
  await expect(products.locator('.status-badge')).toHaveText('Editing');
  await expect(products.getByTestId('editor')).toHaveText('alice');
  await expect(products.getByTestId('edit-block-reason')).toHaveText('Being edited by alice');
  await expect(products.getByRole('button', { name: 'Edit', exact: true })).toBeDisabled();
  for (const target of FK_TARGETS) {
    const row = tableRow(bob, target);
    await expect(row).toHaveAttribute('data-status', 'locked');
    await expect(row.locator('.status-badge')).toHaveText('Locked');
    await expect(row.getByTestId('edit-block-reason')).toHaveText(
      'Locked because products is being edited (alice)',
    );
    await expect(row.getByRole('button', { name: 'Edit', exact: true })).toBeDisabled();
  }
  await expectAccessible(bob);
  await snap(bob, 'bob-sees-products-editing-and-its-targets-locked');

  // The table pages say so too, and offer no way in.
  for (const table of ['products', ...FK_TARGETS]) {
    await openTable(bob, table);
    await expect(bob.getByRole('button', { name: 'Start editing' })).toBeDisabled();
  }
  await expect(bob.getByTestId('lock-summary')).toContainText(
    'Locked because products is being edited (alice)',
  );
  await snap(bob, 'bob-on-locked-suppliers');
});
