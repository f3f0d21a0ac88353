import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { graphql } from '../support/graphql';

test("an admin sets a table's write guard to ENFORCE in Table settings, and sees the history's size (en, ja)", async ({
  signIn,
  snap,
}) => {
  const admin = await signIn('admin');
  try {
    await admin.getByRole('button', { name: 'Admin', exact: true }).click();
    await admin.getByRole('link', { name: 'Table settings' }).click();
    const guard = admin.getByRole('combobox', { name: 'warehouses: write guard' });
    await expect(guard).toHaveValue('RECORD');
    await expect(admin.getByRole('region', { name: 'Write guard' })).toContainText(
      'The row history takes',
    );
    await guard.selectOption('ENFORCE');
    await expect(admin.getByTestId('policy-warehouses')).toContainText(
      'Writes without the lock are refused.',
    );
    await admin.getByRole('button', { name: 'Save the policy of warehouses' }).click();
    await expect(admin.getByText('Policy of warehouses saved.')).toBeVisible();
    const policies = await graphql(admin.request, '{ tablePolicies { table writeGuard } }');
    expect(policies.data?.tablePolicies).toContainEqual({
      table: 'warehouses',
      writeGuard: 'ENFORCE',
    });
    await expectAccessible(admin);
    await snap(admin, 'admin-write-guard');

    await admin.getByRole('button', { name: '日本語' }).click();
    await expect(admin.getByRole('combobox', { name: 'warehouses：書き込みガード' })).toHaveValue(
      'ENFORCE',
    );
    await expect(admin.getByTestId('policy-warehouses')).toContainText(
      'ロックのない書き込みを拒否します。',
    );
    await expectAccessible(admin);
    await snap(admin, 'admin-write-guard-ja');
  } finally {
    await graphql(
      admin.request,
      'mutation { setTablePolicy(table: "warehouses", policy: { writeGuard: RECORD }) { table } }',
    );
  }
});
