import type { Page } from '@playwright/test';
import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { cell, rowId, startEditing } from '../support/tablePage';

/** The page's clipboard API (the tests' own types leave the browser's out). */
interface BrowserClipboard {
  navigator: {
    clipboard: {
      readText(): Promise<string>;
      writeText(text: string): Promise<void>;
      read(): Promise<{ getType(type: string): Promise<{ text(): Promise<string> }> }[]>;
    };
  };
}

const grantClipboard = (page: Page) =>
  page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
const readClipboard = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as BrowserClipboard).navigator.clipboard.readText());
const readClipboardHtml = (page: Page) =>
  page.evaluate(async () => {
    const [item] = await (globalThis as unknown as BrowserClipboard).navigator.clipboard.read();
    return item ? (await item.getType('text/html')).text() : '';
  });
const writeClipboard = (page: Page, text: string) =>
  page.evaluate(
    (value) => (globalThis as unknown as BrowserClipboard).navigator.clipboard.writeText(value),
    text,
  );

test('a viewer copies a cell and a range chosen with the mouse or the keyboard', async ({
  openTableAs,
}) => {
  const carol = await openTableAs('carol', 'products');
  await grantClipboard(carol);
  const sku1 = cell(carol, rowId('1'), 'sku');
  const name2 = cell(carol, rowId('2'), 'name');
  const texts = await Promise.all(
    [sku1, cell(carol, rowId('1'), 'name'), cell(carol, rowId('2'), 'sku'), name2].map(
      async (target) => (await target.textContent()) ?? '',
    ),
  );

  await sku1.click();
  await carol.keyboard.press('Control+C');
  await expect.poll(() => readClipboard(carol)).toBe('SKU-000001\r\n');

  await name2.click({ modifiers: ['Shift'] });
  await expect(carol.locator('.cell-range')).toHaveCount(4);
  await carol.keyboard.press('Control+C');
  const range = `${texts[0]}\t${texts[1]}\r\n${texts[2]}\t${texts[3]}\r\n`;
  await expect.poll(() => readClipboard(carol)).toBe(range);
  // Excel and Word take the HTML table first.
  const html = await readClipboardHtml(carol);
  expect(html.match(/<td/g)).toHaveLength(4);
  expect(html).toContain(`${texts[0]}</td>`);

  await writeClipboard(carol, '');
  await sku1.click();
  await carol.keyboard.press('Shift+ArrowDown');
  await carol.keyboard.press('Shift+ArrowRight');
  await carol.keyboard.press('Control+C');
  await expect.poll(() => readClipboard(carol)).toBe(range);
  await expectAccessible(carol);
});

test('alice pastes a 3×2 block from Excel: three rows change, a bad value is marked', async ({
  openTableAs,
  snap,
}) => {
  const alice = await openTableAs('alice', 'products');
  await grantClipboard(alice);
  await startEditing(alice);

  await cell(alice, rowId('1'), 'name').click();
  await writeClipboard(alice, 'Pasted A\t11\r\nPasted B\t12.5\r\nPasted C\t13\r\n');
  await alice.keyboard.press('Control+V');
  // A pasted key shows its category's name beside it; a key that is no category shows none.
  for (const [id, name, category] of [
    ['1', 'Pasted A', '11Rice and noodles'],
    ['2', 'Pasted B', '12.5'],
    ['3', 'Pasted C', '13Frozen food'],
  ] as const) {
    await expect(cell(alice, rowId(id), 'name')).toHaveText(name);
    await expect(cell(alice, rowId(id), 'category_id')).toHaveText(category);
  }
  await expect(cell(alice, rowId('2'), 'category_id')).toHaveClass(/cell-invalid/);
  await expect(alice.locator('.ag-cell.cell-invalid')).toHaveCount(1);
  await expect(alice.getByTestId('change-summary')).toContainText('3 unsaved changes');

  // Pasted into an open editor, a block still goes into the cells, not into that one cell.
  await cell(alice, rowId('4'), 'name').dblclick();
  await expect(alice.locator('.cell-editor')).toBeFocused();
  await writeClipboard(alice, 'Editor A\nEditor B');
  await alice.keyboard.press('Control+V');
  await expect(alice.locator('.cell-editor')).toHaveCount(0);
  await expect(cell(alice, rowId('4'), 'name')).toHaveText('Editor A');
  await expect(cell(alice, rowId('5'), 'name')).toHaveText('Editor B');
  await expectAccessible(alice);
  await snap(alice, 'pasted-block');

  // One Ctrl+Z takes back a whole paste.
  await alice.keyboard.press('Control+Z');
  await expect(cell(alice, rowId('5'), 'name')).not.toHaveText('Editor B');
  await expect(cell(alice, rowId('1'), 'name')).toHaveText('Pasted A');
});

test('alice undoes and redoes her edits, and fills down with Ctrl+D and the fill handle', async ({
  openTableAs,
  snap,
}) => {
  const alice = await openTableAs('alice', 'products');
  await startEditing(alice);
  const price = (id: string) => cell(alice, rowId(id), 'unit_price');
  const before = await Promise.all(
    ['1', '2', '3', '4'].map(async (id) => (await price(id).textContent()) ?? ''),
  );

  await price('1').dblclick();
  await alice.locator('.cell-editor').fill('5.5');
  await alice.keyboard.press('Enter');
  await expect(price('1')).toHaveText('5.50');
  await price('1').click();
  await alice.keyboard.press('Control+Z');
  await expect(price('1')).toHaveText(before[0] ?? '');
  await alice.keyboard.press('Control+Y');
  await expect(price('1')).toHaveText('5.50');
  await alice.keyboard.press('Control+Z');
  await alice.keyboard.press('Control+Shift+Z');
  await expect(price('1')).toHaveText('5.50');

  // Ctrl+D copies the range's first row down; one Ctrl+Z takes the fill back.
  await price('3').click({ modifiers: ['Shift'] });
  await alice.keyboard.press('Control+D');
  await expect(price('2')).toHaveText('5.50');
  await expect(price('3')).toHaveText('5.50');
  await alice.keyboard.press('Control+Z');
  await expect(price('3')).toHaveText(before[2] ?? '');
  await expect(price('1')).toHaveText('5.50');

  // The handle at the range's corner, dragged down, repeats the value. The notice that edit
  // mode began with goes away by itself 5 s later and the grid moves up under the held button:
  // the pointer is then over row 5, and the fill takes it too. How far the test has got by then
  // depends on the machine's load, so the drag waits until the notice has gone (it came with edit
  // mode, which startEditing waited for) and the grid stays where it is until the button is up.
  await expect(alice.getByTestId('notices')).toBeEmpty();
  await price('1').click();
  const handle = await price('1').boundingBox();
  if (!handle) throw new Error('cells not on screen');
  await price('1').hover({ position: { x: handle.width - 3, y: handle.height - 3 } });
  await alice.mouse.down();
  for (const id of ['2', '3', '4']) await price(id).hover({ position: { x: 10, y: 10 } });
  await expect(alice.locator('.cell-fill-target')).toHaveCount(3);
  await snap(alice, 'fill-handle');
  await alice.mouse.up();
  await expect(price('4')).toHaveText('5.50');
  await expect(alice.getByTestId('change-summary')).toContainText('4 unsaved changes');

  // An impossible date is kept as typed and refused, never turned into another date.
  const launched = cell(alice, rowId('1'), 'launched_on');
  await price('1').click();
  for (let step = 0; step < 3; step++) await alice.keyboard.press('ArrowRight');
  await expect(launched).toBeFocused();
  await alice.keyboard.type('2025-02-30');
  await alice.keyboard.press('Enter');
  await expect(launched).toHaveText('2025-02-30');
  await expect(launched).toHaveClass(/cell-invalid/);
});

test('alice sets one value on the selected rows, then deletes them with a count', async ({
  openTableAs,
  snap,
}) => {
  const alice = await openTableAs('alice', 'products');
  await startEditing(alice);
  const check = (id: string) =>
    alice.locator(`[row-id='${rowId(id)}'] .ag-selection-checkbox input`).check();
  await check('1');
  await check('2');

  await alice.getByRole('button', { name: 'Set value on 2 rows' }).click();
  const dialog = alice.getByRole('dialog');
  await dialog.getByLabel('Column').selectOption('unit_price');
  await dialog.getByLabel('Value', { exact: true }).fill('12,50');
  await expect(dialog.getByRole('status')).toHaveText(
    'Use a point for decimals (12.50), not a comma.',
  );
  await expect(dialog.getByRole('button', { name: 'Set on 2 rows' })).toBeDisabled();
  await dialog.getByLabel('Value', { exact: true }).fill('12.50');
  await expectAccessible(alice);
  await dialog.getByRole('button', { name: 'Set on 2 rows' }).click();
  await expect(cell(alice, rowId('1'), 'unit_price')).toHaveText('12.50');
  await expect(cell(alice, rowId('2'), 'unit_price')).toHaveText('12.50');

  await alice.getByRole('button', { name: 'Delete 2 selected rows' }).click();
  await expect(alice.getByTestId('change-summary')).toContainText('2 deleted rows');
  await cell(alice, rowId('3'), 'name').click();
  await alice.keyboard.press('Control+Z');
  await expect(alice.getByTestId('change-summary')).not.toContainText('deleted row');

  // The same in Japanese (a new language builds a new grid: the selection starts again).
  await alice.getByRole('button', { name: '日本語' }).click();
  await alice.locator(`[row-id='${rowId('3')}'] .ag-selection-checkbox input`).check();
  await alice.getByRole('button', { name: '1 行に値を設定' }).click();
  await expect(alice.getByRole('dialog').getByRole('status')).toHaveText('値を入力してください。');
  await expectAccessible(alice);
  await snap(alice, 'set-value-ja');
});
