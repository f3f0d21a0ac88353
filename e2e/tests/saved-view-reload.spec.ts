import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';

test('column widths, hidden columns, the sort and a saved view stay after a reload and travel by URL', async ({
  openTableAs,
  signIn,
  snap,
}) => {
  const carol = await openTableAs('carol', 'warehouses');
  const header = (column: string) => carol.locator(`[role='columnheader'][col-id='${column}']`);
  const firstName = carol.locator(
    ".ag-grid-scrolling-container .ag-row[row-index='0'] [col-id='name']",
  );

  // Widen name by dragging its edge, hide capacity_m3, sort by name going down.
  const before = (await header('name').boundingBox())?.width ?? 0;
  const edge = await header('name').locator('.ag-header-cell-resize').boundingBox();
  if (!edge) throw new Error('no resize handle on the name column');
  await carol.mouse.move(edge.x + edge.width / 2, edge.y + edge.height / 2);
  await carol.mouse.down();
  await carol.mouse.move(edge.x + edge.width / 2 + 120, edge.y + edge.height / 2, { steps: 5 });
  await carol.mouse.up();
  await carol.getByText('Columns', { exact: true }).click();
  await carol.getByRole('checkbox', { name: 'capacity_m3', exact: true }).uncheck();
  await expect(header('capacity_m3')).toHaveCount(0);
  await expectAccessible(carol);
  await carol.getByText('Columns', { exact: true }).click();
  await header('name').locator('.ag-header-cell-label').click();
  await header('name').locator('.ag-header-cell-label').click();
  await expect(carol).toHaveURL(/sort=name%3Adesc/);
  await expect(firstName).toHaveText('Tokyo central');

  await carol.reload();
  await expect(firstName).toHaveText('Tokyo central');
  await expect(header('capacity_m3')).toHaveCount(0);
  const after = (await header('name').boundingBox())?.width ?? 0;
  expect(after - before).toBeGreaterThan(100);

  // Saved and shared as a view: its link shows bob the same rows the same way.
  await carol.getByText('Save view', { exact: true }).click();
  await carol.getByRole('textbox', { name: 'View name' }).fill('Newest names first');
  await carol.getByRole('checkbox', { name: 'Share with everyone' }).check();
  await carol.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(carol).toHaveURL(/view=[0-9a-f-]{36}/);
  await expect(carol.getByRole('combobox', { name: 'View' })).toHaveText(/Newest names first/);
  await expectAccessible(carol);
  await snap(carol, 'saved-view');
  const link = carol.url();

  const bob = await signIn('bob', link);
  await expect(bob.getByTestId('table-title')).toHaveText('warehouses');
  await expect(
    bob.locator(".ag-grid-scrolling-container .ag-row[row-index='0'] [col-id='name']"),
  ).toHaveText('Tokyo central');
  await expect(bob.locator("[role='columnheader'][col-id='capacity_m3']")).toHaveCount(0);
  await expect(bob.getByRole('combobox', { name: 'View' })).toHaveValue(/[0-9a-f-]{36}/);

  await snap(bob, 'shared-view');
});
