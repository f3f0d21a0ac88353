import { expect, type Locator, type Page } from '@playwright/test';
import { expectAccessibleOnce } from './accessibility';

/**
 * The id the app gives a stored row: its primary key values joined by `/`, each URI-encoded with
 * `!'()*~` too (as apps/web/src/table/changes/gridRow.ts does: a period `[a,b)` has a bracket).
 */
export const rowId = (...key: string[]) =>
  key
    .map((value) =>
      encodeURIComponent(value).replace(
        /[!'()*~]/g,
        (char) => `%${char.charCodeAt(0).toString(16)}`,
      ),
    )
    .join('/');

/** The tables page's row for `table`. */
export const tableRow = (page: Page, table: string) => page.getByTestId(`table-row-${table}`);

/** Waits until the page receives live updates (another browser's changes as they happen). */
export async function expectLive(page: Page): Promise<void> {
  await expect(page.getByTestId('live-status')).toHaveAttribute('data-status', 'live');
}

/** The address of `table`'s page. */
export const tablePath = (table: string) => `/tables/${table}`;

export async function openTable(page: Page, table: string): Promise<void> {
  await page.goto(tablePath(table));
  await expectTableOpened(page, table);
}

/** Waits until the page shows `table` with its rows, and checks it as opened. */
export async function expectTableOpened(page: Page, table: string): Promise<void> {
  await expect(page.getByTestId('table-title')).toHaveText(table);
  await expect(page.locator('.ag-grid-scrolling-container .ag-row').first()).toBeVisible();
  await expectAccessibleOnce(page, 'opened');
}

/** Start editing, through the dialog that names the tables it will lock. */
export async function startEditing(page: Page, expectLocked: string[] = []): Promise<void> {
  await page.getByRole('button', { name: 'Start editing' }).click();
  const dialog = page.getByRole('dialog');
  for (const table of expectLocked) {
    await expect(dialog.getByTestId('tables-to-lock')).toContainText(table);
  }
  await expectAccessibleOnce(page, 'start-editing dialog');
  await dialog.getByRole('button', { name: 'Start editing' }).click();
  await expect(page.getByTestId('table-status')).toHaveText('Editing (you)');
  // Edit mode adds the grid's Changes column, and with it the grid builds its columns anew:
  // a filter typed before that is lost with the input it was typed into.
  await expect(page.getByRole('columnheader', { name: 'Changes', exact: true })).toBeVisible();
  await expectAccessibleOnce(page, 'edit mode as started');
}

/** A cell of a stored row (`rowId`) or, with `{ newRow: n }`, of the n-th unsaved new row. */
export function cell(page: Page, row: string | { newRow: number }, column: string): Locator {
  const rowLocator =
    typeof row === 'string'
      ? page.locator(`.ag-grid-scrolling-container [row-id='${row}']`)
      : // By position on screen: the grid keeps row elements in the order they were made.
        page.locator(`.ag-grid-pinned-top-rows-container .ag-row[row-index='t-${row.newRow}']`);
  return rowLocator.locator(`[col-id='${column}']`);
}

/** The "Changes" cell of a row: what is unsaved about it and why it cannot be saved. */
export const rowStatus = (page: Page, row: string) =>
  page.locator(`.ag-grid-scrolling-container [row-id='${row}'] [data-testid='row-status']`);

/** Types a value into a cell and commits it with Enter. */
export async function editCell(target: Locator, value: string): Promise<void> {
  await target.dblclick();
  const editor = target.page().locator('.cell-editor');
  await expect(editor).toBeFocused();
  await editor.fill(value);
  await editor.press('Enter');
  await expect(editor).toHaveCount(0);
}
