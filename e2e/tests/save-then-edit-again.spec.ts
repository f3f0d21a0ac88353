import type { Route } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { storedRows } from '../support/graphql';
import { cell, editCell, openTable, rowId, startEditing } from '../support/tablePage';

test('a row edited again right after its save, before the grid has read it again, saves without a false conflict', async ({
  signIn,
}) => {
  const alice = await signIn('alice');
  await openTable(alice, 'warehouses');
  await startEditing(alice, ['regions']);
  await editCell(cell(alice, rowId('3'), 'name'), 'Fukuoka, checked');

  // The grid's reading of the saved rows is held until the second edit is made: the order a
  // quick user and a slow network give.
  const heldReads: Route[] = [];
  let holding = true;
  await alice.route('**/graphql', (route) => {
    if (holding && route.request().postData()?.includes('query RowPage(')) heldReads.push(route);
    else void route.continue();
  });
  await alice.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(alice.getByText('Saved: 0 added, 1 changed, 0 deleted.')).toBeVisible();
  await expect.poll(() => heldReads.length).toBeGreaterThan(0);
  await editCell(cell(alice, rowId('3'), 'name'), 'Fukuoka');
  holding = false;
  for (const route of heldReads) await route.continue();

  await expect(alice).toHaveTitle('• warehouses — tablelock');
  await alice.getByRole('button', { name: 'Save', exact: true }).click();
  // Saved: nothing is left unsaved, and no refusal was said.
  await expect(alice).toHaveTitle('warehouses — tablelock');
  await expect(alice.locator('.notice-error')).toHaveCount(0);
  expect(
    await storedRows(alice.request, 'warehouses', [
      { column: 'id', operator: 'equals', value: '3' },
    ]),
  ).toMatchObject([{ name: 'Fukuoka' }]);
});

test('an edit made while a save is on its way stays unsaved after it, and saves next', async ({
  signIn,
}) => {
  const alice = await signIn('alice');
  await openTable(alice, 'warehouses');
  await startEditing(alice, ['regions']);
  await editCell(cell(alice, rowId('4'), 'name'), 'Rotterdam, checked');

  // The save's answer is held until the next edit is made.
  const heldSaves: Route[] = [];
  let holding = true;
  await alice.route('**/graphql', (route) => {
    if (holding && route.request().postData()?.includes('mutation SaveRows(')) {
      heldSaves.push(route);
    } else void route.continue();
  });
  await alice.getByRole('button', { name: 'Save', exact: true }).click();
  await expect.poll(() => heldSaves.length).toBe(1);
  await editCell(cell(alice, rowId('4'), 'capacity_m3'), '52500.0');
  await editCell(cell(alice, rowId('2'), 'name'), 'Osaka bay, checked');
  holding = false;
  await heldSaves[0]?.continue();
  await expect(alice.getByText('Saved: 0 added, 1 changed, 0 deleted.')).toBeVisible();

  await expect(alice).toHaveTitle('• warehouses — tablelock');
  await alice.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(alice).toHaveTitle('warehouses — tablelock');
  await expect(alice.locator('.notice-error')).toHaveCount(0);
  expect(
    await storedRows(alice.request, 'warehouses', [
      { column: 'id', operator: 'greaterThanOrEqual', value: '2' },
    ]),
  ).toMatchObject([
    { id: '2', name: 'Osaka bay, checked' },
    { id: '3' },
    { id: '4', name: 'Rotterdam, checked', capacity_m3: '52500.0' },
  ]);
});
