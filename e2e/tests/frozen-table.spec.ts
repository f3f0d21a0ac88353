import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { graphql } from '../support/graphql';
import { openTable, tableRow } from '../support/tablePage';

const REASON = 'Monthly close: November';

test('an admin freezes a table: editors see the badge and the reason, and cannot start; the thaw frees it live', async ({
  signIn,
  snap,
}) => {
  const alice = await signIn('alice');
  const admin = await signIn('admin');
  try {
    await admin.getByRole('button', { name: 'Admin', exact: true }).click();
    await admin.getByRole('link', { name: 'Table settings' }).click();
    await expect(admin.getByRole('heading', { name: 'Table settings', level: 1 })).toBeVisible();
    await expectAccessible(admin);
    const freeze = admin.getByRole('region', { name: 'Freeze' });
    await freeze.getByRole('checkbox', { name: 'customers', exact: true }).check();
    await freeze.getByLabel('Reason').fill(REASON);
    await freeze.getByRole('button', { name: 'Freeze the chosen tables' }).click();
    await expect(admin.getByTestId('frozen-customers')).toContainText(REASON);
    await expectAccessible(admin);
    await snap(admin, 'admin-table-settings-frozen');

    // Alice's tables page hears of it live: the badge, the reason, no Edit.
    const row = tableRow(alice, 'customers');
    await expect(row.getByTestId('frozen-badge')).toContainText(REASON);
    await expect(row.getByRole('button', { name: 'Edit', exact: true })).toBeDisabled();
    await expect(row.getByTestId('edit-block-reason')).toHaveText(`Frozen: ${REASON}`);
    // Frozen is its state: never "Normal" beside it.
    await expect(row).not.toContainText('Normal');
    await expect(row.getByTestId('frozen-badge')).toHaveCount(1);
    await expectAccessible(alice);
    await snap(alice, 'alice-tables-frozen');

    await openTable(alice, 'customers');
    await expect(alice.getByTestId('frozen-badge')).toContainText(REASON);
    await expect(alice.getByRole('button', { name: 'Start editing' })).toBeDisabled();
    await expect(alice.getByTestId('table-status')).not.toContainText('Normal');
    // Nobody may wait in line for a frozen table (TABLE_FROZEN): no Notify to offer it.
    await expect(alice.getByRole('button', { name: 'Notify me when free' })).toHaveCount(0);
    await expectAccessible(alice);
    await snap(alice, 'alice-table-frozen');
    await alice.getByRole('button', { name: '日本語' }).click();
    await expect(alice.getByTestId('frozen-badge')).toContainText('凍結中');
    await expect(alice.getByTestId('table-status')).not.toContainText('通常');
    await expect(alice.getByRole('button', { name: '空いたら通知' })).toHaveCount(0);
    await expectAccessible(alice);
    await snap(alice, 'alice-table-frozen-ja');
    await alice.getByRole('button', { name: 'English' }).click();

    await admin.getByRole('button', { name: 'Thaw customers' }).click();
    await expect(alice.getByTestId('frozen-badge')).toHaveCount(0);
    await expect(alice.getByRole('button', { name: 'Start editing' })).toBeEnabled();

    await admin.goto('/admin?table=customers&action=freeze&action=thaw');
    await expect(admin.getByTestId('history-row')).toHaveCount(2);
    await expect(admin.getByTestId('history-row').first()).toContainText('Thawed');
    await expect(admin.getByTestId('history-row').last()).toContainText(REASON);
    await expectAccessible(admin);
  } finally {
    await graphql(admin.request, 'mutation { thawTables(all: true) { tables } }');
  }
});
