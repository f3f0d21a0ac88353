import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { cell, editCell, rowId, startEditing } from '../support/tablePage';

test('the Changes view and a row history show alice’s saves; a revert leaves the row changed since alone', async ({
  openTableAs,
  snap,
}) => {
  const alice = await openTableAs('alice', 'regions');
  await startEditing(alice);
  const save = async () => {
    await alice.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(alice.getByText('No unsaved changes')).toBeVisible();
  };
  await editCell(cell(alice, rowId('30'), 'name'), 'West Coast');
  await editCell(cell(alice, rowId('31'), 'name'), 'East Coast');
  await save();
  // A later change of one of its rows: the conflict of the revert below.
  await editCell(cell(alice, rowId('31'), 'name'), 'Atlantic');
  await save();

  await alice.getByRole('button', { name: 'Changes', exact: true }).click();
  const dialog = alice.getByRole('dialog');
  const entries = dialog.getByTestId('change-entry');
  await expect(entries).toHaveCount(2);
  const first = entries.nth(1);
  await first.getByRole('button', { name: 'Show rows' }).click();
  await expect(first.getByTestId('change-row')).toHaveCount(2);
  await expect(first.getByTestId('change-row').first()).toContainText('US West → West Coast');
  await expectAccessible(alice);
  await snap(alice, 'changes-view');

  await first.getByRole('button', { name: 'Revert this change' }).click();
  await expect(first.getByTestId('revert-row')).toHaveText(['Restore the old values of id=30']);
  await expect(first.getByTestId('revert-conflict')).toContainText('id=31: changed again by alice');
  await expectAccessible(alice);
  await snap(alice, 'revert-dry-run');
  await first.getByRole('button', { name: 'Revert 1 row' }).click();
  await expect(alice.getByText('Reverted: 1 row restored.')).toBeVisible();
  await expect(entries.first()).toHaveAttribute('data-kind', 'revert');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(cell(alice, rowId('30'), 'name')).toHaveText('US West');
  await expect(cell(alice, rowId('31'), 'name')).toHaveText('Atlantic');

  await cell(alice, rowId('31'), 'code').click();
  await alice.getByRole('button', { name: 'Row history' }).click();
  const history = alice.getByTestId('row-history').locator('li');
  await expect(history).toHaveCount(2);
  await expect(history.first()).toContainText('East Coast → Atlantic');
  await expectAccessible(alice);
  await snap(alice, 'row-history');
  await alice.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

  await alice.getByRole('button', { name: '日本語' }).click();
  await alice.getByRole('button', { name: '変更履歴', exact: true }).click();
  await expect(alice.getByRole('dialog').getByTestId('change-entry')).toHaveCount(3);
  await expectAccessible(alice);
  await snap(alice, 'changes-view-ja');
});
