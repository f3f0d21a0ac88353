import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { storedRows } from '../support/graphql';
import { cell, editCell, rowId, rowStatus, startEditing } from '../support/tablePage';

test('a save with one invalid row changes nothing and marks that row, in en and ja', async ({
  openTableAs,
  snap,
}) => {
  const alice = await openTableAs('alice', 'suppliers');
  const originalName = await cell(alice, rowId('1'), 'name').textContent();
  await startEditing(alice, ['currencies', 'regions']);

  await editCell(cell(alice, rowId('1'), 'name'), 'A valid new name');
  // Valid for the column's type, but no region 999 exists: only the database can tell.
  await editCell(cell(alice, rowId('2'), 'region_id'), '999');
  await alice.getByRole('button', { name: 'Save', exact: true }).click();

  await expect(alice.getByText(/^Nothing was saved: 1 row has a problem/)).toBeVisible();
  await expect(rowStatus(alice, rowId('2'))).toHaveAttribute('data-row-state', 'error');
  await expect(rowStatus(alice, rowId('2'))).toContainText(
    '999 is not in regions (regions.id). Choose a value that exists there.',
  );
  await expect(cell(alice, rowId('2'), 'region_id')).toHaveClass(/cell-error/);
  await expect(rowStatus(alice, rowId('1'))).toHaveAttribute('data-row-state', 'changed');
  await expect(alice.getByTestId('change-summary')).toContainText('2 unsaved changes');
  await expectAccessible(alice);
  await snap(alice, 'invalid-row-marked');

  await alice.getByRole('button', { name: '日本語' }).click();
  await expect(rowStatus(alice, rowId('2'))).toContainText(
    '999 は regions にありません（regions.id）。存在する値を選んでください。',
  );
  await expect(cell(alice, rowId('2'), 'region_id')).toHaveClass(/cell-error/);
  await expectAccessible(alice);
  await snap(alice, 'invalid-row-marked-ja');

  const stored = await storedRows(alice.request, 'suppliers', [
    { column: 'id', operator: 'lessThanOrEqual', value: '2' },
  ]);
  expect(stored.map((row) => row.name)).toContain(originalName);
  expect(stored.map((row) => row.region_id)).not.toContain('999');
});
