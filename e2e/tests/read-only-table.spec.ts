import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { graphql } from '../support/graphql';
import { openTable, startEditing, tableRow } from '../support/tablePage';

test('a read-only table: a badge, no editing, yet locked as an FK target', async ({
  signIn,
  snap,
}) => {
  const admin = await signIn('admin');
  const bob = await signIn('bob');
  try {
    await admin.goto('/admin/table-settings');
    const policy = admin.getByTestId('policy-categories');
    await policy.getByRole('checkbox', { name: 'categories: read-only' }).check();
    await policy.getByRole('button', { name: 'Save the policy of categories' }).click();
    await expect(admin.getByText('Policy of categories saved.')).toBeVisible();
    await expectAccessible(admin);

    await bob.reload();
    const row = tableRow(bob, 'categories');
    await expect(row.getByTestId('read-only-badge')).toHaveText('Read-only');
    await expect(row.getByRole('button', { name: 'Edit', exact: true })).toBeDisabled();
    await expectAccessible(bob);
    await snap(bob, 'bob-tables-read-only');

    await openTable(bob, 'categories');
    await expect(bob.getByRole('button', { name: 'Start editing' })).toBeDisabled();
    await expect(bob.getByRole('button', { name: 'Notify me when free' })).toHaveCount(0);
    await expectAccessible(bob);

    // products references categories: editing products still locks it.
    await openTable(bob, 'products');
    await startEditing(bob, ['categories']);
    await bob.goto('/tables');
    await expect(tableRow(bob, 'categories')).toHaveAttribute('data-status', 'locked');
  } finally {
    await graphql(
      admin.request,
      'mutation { setTablePolicy(table: "categories", policy: { readOnly: false }) { table } }',
    );
  }
});
