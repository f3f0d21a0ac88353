import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { cell, editCell, expectLive, rowId, startEditing } from '../support/tablePage';

test('a row alice saves appears in bob’s open table page without a reload', async ({
  openTableAs,
  snap,
}) => {
  const bob = await openTableAs('bob', 'currencies');
  await expectLive(bob);
  // Gone after a reload: proves that bob's page is the same one throughout.
  await bob.evaluate(() => {
    (globalThis as { e2eSamePage?: boolean }).e2eSamePage = true;
  });
  const yen = cell(bob, rowId('JPY'), 'name');
  await expect(yen).toHaveText('Japanese yen');

  const alice = await openTableAs('alice', 'currencies');
  await startEditing(alice);
  await expect(bob.getByTestId('table-status')).toHaveText('Editing');
  await expect(bob.getByTestId('lock-summary')).toContainText('Being edited by alice');

  await editCell(cell(alice, rowId('JPY'), 'name'), 'Yen (JPY)');
  await alice.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(alice.getByText('Saved: 0 added, 1 changed, 0 deleted.')).toBeVisible();

  await expect(yen).toHaveText('Yen (JPY)', { timeout: 3_000 });
  expect(await bob.evaluate(() => (globalThis as { e2eSamePage?: boolean }).e2eSamePage)).toBe(
    true,
  );
  await expectAccessible(bob);
  await snap(bob, 'bob-sees-the-saved-value');
});
