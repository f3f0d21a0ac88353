import type { Page, Route } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { storedRows } from '../support/graphql';
import { cell, editCell, rowId, startEditing } from '../support/tablePage';

/** alice, editing warehouses, with one cell changed. */
async function editWarehouses(
  openTableAs: (user: 'alice', table: string) => Promise<Page>,
  row: string,
  name: string,
) {
  const alice = await openTableAs('alice', 'warehouses');
  await startEditing(alice, ['regions']);
  await editCell(cell(alice, rowId(row), 'name'), name);
  return alice;
}

/**
 * Holds the page's GraphQL requests whose text includes `operation` until `release`: the order
 * a quick user and a slow network give.
 */
async function holdRequests(page: Page, operation: string) {
  const held: Route[] = [];
  let holding = true;
  await page.route('**/graphql', (route) => {
    if (holding && route.request().postData()?.includes(operation)) held.push(route);
    else void route.continue();
  });
  return {
    held,
    async release() {
      holding = false;
      for (const route of held) await route.continue();
    },
  };
}

/** Saves what is unsaved: nothing is left unsaved after it, and no refusal was said. */
async function saveTheRest(alice: Page) {
  await expect(alice).toHaveTitle('• warehouses — tablelock');
  await alice.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(alice).toHaveTitle('warehouses — tablelock');
  await expect(alice.locator('.notice-error')).toHaveCount(0);
}

const saved = (alice: Page) => alice.getByText('Saved: 0 added, 1 changed, 0 deleted.');

test('a row edited again right after its save, before the grid has read it again, saves without a false conflict', async ({
  openTableAs,
}) => {
  const alice = await editWarehouses(openTableAs, '3', 'Fukuoka, checked');
  const reads = await holdRequests(alice, 'query RowPage(');
  await alice.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(saved(alice)).toBeVisible();
  await expect.poll(() => reads.held.length).toBeGreaterThan(0);
  await editCell(cell(alice, rowId('3'), 'name'), 'Fukuoka');
  await reads.release();

  await saveTheRest(alice);
  expect(
    await storedRows(alice.request, 'warehouses', [
      { column: 'id', operator: 'equals', value: '3' },
    ]),
  ).toMatchObject([{ name: 'Fukuoka' }]);
});

test('an edit made while a save is on its way stays unsaved after it, and saves next', async ({
  openTableAs,
}) => {
  const alice = await editWarehouses(openTableAs, '4', 'Rotterdam, checked');
  const saves = await holdRequests(alice, 'mutation SaveRows(');
  await alice.getByRole('button', { name: 'Save', exact: true }).click();
  await expect.poll(() => saves.held.length).toBe(1);
  await editCell(cell(alice, rowId('4'), 'capacity_m3'), '52500.0');
  await editCell(cell(alice, rowId('2'), 'name'), 'Osaka bay, checked');
  await saves.release();
  await expect(saved(alice)).toBeVisible();

  await saveTheRest(alice);
  expect(
    // Its own rows: other specs of the worker add warehouses of their own.
    await storedRows(alice.request, 'warehouses', [
      { column: 'id', operator: 'greaterThanOrEqual', value: '2' },
      { column: 'id', operator: 'lessThanOrEqual', value: '4' },
    ]),
  ).toMatchObject([
    { id: '2', name: 'Osaka bay, checked' },
    { id: '3' },
    { id: '4', name: 'Rotterdam, checked', capacity_m3: '52500.0' },
  ]);
});
