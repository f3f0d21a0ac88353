import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { cell, rowId, startEditing } from '../support/tablePage';

test('a foreign-key cell offers the referenced rows by search; the picked key lands in the cell', async ({
  openTableAs,
  snap,
}) => {
  const alice = await openTableAs('alice', 'price_list_items');
  // The database's comments name the table and a column; the technical names stay beside them.
  await expect(alice.locator('.table-caption')).toHaveText('Price list items');
  await expect(alice.locator("[role='columnheader'][col-id='price'] .column-header")).toHaveText(
    'Priceprice*',
  );
  // Read mode: the label beside the key.
  const product = cell(alice, rowId('1', '1'), 'product_id');
  await expect(product).toHaveText('1SKU-000001');

  await startEditing(alice, ['products']);
  // A new row opens at price_list_id, a foreign key too: its key typed and taken with Enter.
  await alice.getByRole('button', { name: 'Add row' }).click();
  const priceList = alice.getByRole('combobox', { name: 'price_list_id' });
  await expect(priceList).toBeFocused();
  await priceList.fill('3');
  await expect(alice.getByRole('option', { name: '3 Export 2026 (USD)' })).toBeVisible();
  await priceList.press('Enter');
  await expect(cell(alice, { newRow: 0 }, 'price_list_id')).toHaveText('3Export 2026 (USD)');

  const newProduct = cell(alice, { newRow: 0 }, 'product_id');
  await newProduct.dblclick();
  const combobox = alice.getByRole('combobox', { name: 'product_id' });
  await expect(combobox).toBeFocused();
  await combobox.fill('sku-00420');
  const options = alice.getByRole('listbox').getByRole('option');
  await expect(options.first()).toHaveText('4200SKU-004200');
  await expect(options).toHaveCount(10);
  await expectAccessible(alice);
  await snap(alice, 'value-help-open');

  // Keyboard: down twice, Enter takes the second match.
  await combobox.press('ArrowDown');
  await combobox.press('ArrowDown');
  await expect(combobox).toHaveAttribute('aria-activedescendant', /.+/);
  await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
  await combobox.press('Enter');
  await expect(combobox).toHaveCount(0);
  await expect(newProduct).toHaveText('4201SKU-004201');

  // The same row as a form: its price typed there is the grid's, checked alike.
  await alice.getByRole('button', { name: 'Row details' }).click();
  const form = alice.getByRole('dialog', { name: 'Row details' });
  await expect(form.getByLabel('product_id')).toHaveValue('4201');
  await form.getByLabel('Priceprice').fill('abc');
  await expect(form.getByText('Enter a number.')).toBeVisible();
  await form.getByLabel('Priceprice').fill('12.5');
  await expectAccessible(alice);
  await snap(alice, 'row-detail-form');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(cell(alice, { newRow: 0 }, 'price')).toHaveText('12.50');

  // In Japanese too, the list is accessible.
  await alice.getByRole('button', { name: '日本語' }).click();
  await expect(alice.locator('html')).toHaveAttribute('lang', 'ja');
  await expect(alice.locator('.table-caption')).toHaveText('価格表明細');
  // The grid takes the new language's captions as new column definitions, which end an edit
  // under way: the cell is opened once they are in (under load the heading came first, and the
  // editor opened by a double click before them was closed again).
  await expect(alice.locator("[role='columnheader'][col-id='price'] .column-header")).toHaveText(
    /^価格/,
  );
  await newProduct.dblclick();
  await alice.getByRole('combobox', { name: 'product_id' }).fill('zzz');
  await expect(alice.getByText('一致する行がありません', { exact: false })).toBeVisible();
  await expectAccessible(alice);
  await snap(alice, 'value-help-ja-no-match');
});
