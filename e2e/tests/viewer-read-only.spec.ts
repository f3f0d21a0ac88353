import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { graphql } from '../support/graphql';
import { cell, openTable, rowId } from '../support/tablePage';

test('a viewer sees no editing controls and the API refuses her saves', async ({
  signIn,
  snap,
}) => {
  const carol = await signIn('carol');
  await expect(carol.getByTestId('current-user')).toContainText('Viewer');
  await expect(carol.getByTestId('table-row-products')).toBeVisible();
  await expect(carol.getByRole('button', { name: 'Edit', exact: true })).toHaveCount(0);
  await expect(carol.getByRole('button', { name: 'Admin', exact: true })).toHaveCount(0);
  await expectAccessible(carol);
  await snap(carol, 'viewer-tables');

  await openTable(carol, 'products');
  await expect(carol.getByRole('button', { name: 'Start editing' })).toHaveCount(0);
  await expect(carol.getByRole('toolbar')).toHaveCount(0);
  await cell(carol, rowId('1'), 'name').dblclick();
  await expect(carol.locator('.cell-editor')).toHaveCount(0);
  await expectAccessible(carol);
  await snap(carol, 'viewer-products');

  const answer = await graphql(
    carol.request,
    `mutation($changes: RowChanges!) {
      saveRows(table: "products", token: "1", changes: $changes) { saved }
    }`,
    { changes: { updates: [{ key: { id: '1' }, version: '1', values: { name: 'x' } }] } },
  );
  expect(answer.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
});
