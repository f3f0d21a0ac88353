import type { Page } from '@playwright/test';
import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { startEditing } from '../support/tablePage';

const FILE = {
  name: 'customers-from-crm.csv',
  mimeType: 'text/csv',
  buffer: Buffer.from(
    'Customer ID,Customer name,Region ID,Registered on,CRM owner\r\n990001,Mapped Co.,10,2026-11-01,sato\r\n',
  ),
};

async function chooseFile(page: Page, dryRunLabel: string) {
  const dialog = page.getByRole('dialog');
  await dialog.locator('input[type=file]').setInputFiles(FILE);
  await dialog.getByRole('button', { name: dryRunLabel }).click();
  await expect(dialog.getByTestId('column-mapping')).toBeVisible();
  return dialog;
}

test('a file with other column names is imported through a column-mapping step, in en and ja', async ({
  openTableAs,
  snap,
}) => {
  const alice = await openTableAs('alice', 'customers');
  await startEditing(alice);

  await alice.getByRole('button', { name: 'Import CSV/XLSX' }).click();
  let dialog = await chooseFile(alice, 'Dry run');
  // Guessed from the names alone: Region ID is region_id; the others are for the user.
  await expect(dialog.getByLabel('Region ID')).toHaveValue('region_id');
  await expect(dialog.getByLabel('Customer ID')).toHaveValue('');
  await expectAccessible(alice);
  await snap(alice, 'import-column-mapping');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await alice.getByRole('button', { name: '日本語' }).click();
  await alice.getByRole('button', { name: 'CSV/XLSX インポート' }).click();
  dialog = await chooseFile(alice, 'ドライラン');
  await dialog.getByLabel('Customer ID').selectOption('id');
  await dialog.getByLabel('Customer name').selectOption('name');
  await dialog.getByLabel('Registered on').selectOption('registered_on');
  await expect(dialog.getByLabel('CRM owner')).toHaveValue('');
  await expectAccessible(alice);
  await snap(alice, 'import-column-mapping-ja');
  await dialog.getByRole('button', { name: 'ドライラン' }).click();
  // The mapped file: one new customer, nothing in error (the dry run read it through the mapping).
  await expect(dialog.getByTestId('import-counts')).toContainText('1 件を作成');
  await expect(dialog.getByTestId('import-counts')).toContainText('0 件にエラー');
});
