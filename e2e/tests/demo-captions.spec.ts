import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { openTable } from '../support/tablePage';

const header = (page: import('@playwright/test').Page, column: string) =>
  page.locator(`[role='columnheader'][col-id='${column}'] .column-header`);

test('the demo tables carry display names: a first-time user sees 商品, 価格 and 仕入先 in Japanese', async ({
  signIn,
  snap,
}) => {
  const carol = await signIn('carol');
  await openTable(carol, 'products');
  // In English the table has a display name; its columns read as they are named.
  await expect(carol.locator('.table-caption')).toHaveText('Products');
  await expect(header(carol, 'unit_price')).toHaveText(/^unit_price/);

  await carol.getByRole('button', { name: '日本語' }).click();
  await expect(carol.locator('.table-caption')).toHaveText('商品');
  await expect(header(carol, 'unit_price')).toContainText('価格');
  await expect(header(carol, 'supplier_id')).toContainText('仕入先');
  // The technical name stays beside the display name: the name the API and files use.
  await expect(header(carol, 'supplier_id')).toContainText('supplier_id');
  await expectAccessible(carol);
  await snap(carol, 'products-captions-ja');

  await openTable(carol, 'suppliers');
  await expect(carol.locator('.table-caption')).toHaveText('仕入先');
  await expect(header(carol, 'contract_start')).toContainText('契約開始日');
});
