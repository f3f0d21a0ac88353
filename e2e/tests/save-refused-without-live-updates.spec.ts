import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { graphql } from '../support/graphql';
import { cell, editCell, openTable, rowId, startEditing } from '../support/tablePage';

test('without live updates a save after a force release is refused, and the edits stay', async ({
  signIn,
  snap,
}) => {
  const alice = await signIn('alice');
  // A proxy that drops WebSockets: the page must not depend on them to stay safe.
  await alice.routeWebSocket('**/graphql', (socket) =>
    socket.close({ code: 1013, reason: 'e2e: no live updates' }),
  );
  await openTable(alice, 'suppliers');
  await expect(alice.getByTestId('live-status')).toHaveAttribute('data-status', 'offline');
  await startEditing(alice, ['currencies', 'regions']);
  const edited = cell(alice, rowId('1'), 'name');
  await editCell(edited, 'Renamed while offline');

  // The save is to find out, not the next renewal (every 10 s): from here on each renewal is
  // lost on the way, as in a network blip, which the page retries and otherwise ignores.
  await alice.route('**/graphql', async (route) => {
    if (route.request().postData()?.includes('RenewTableLock')) await route.abort();
    else await route.continue();
  });
  const admin = await signIn('admin');
  const answer = await graphql(
    admin.request,
    'mutation { forceRelease(table: "suppliers", reason: "supplier audit") { status } }',
  );
  expect(answer.errors).toBeUndefined();

  await alice.getByRole('button', { name: 'Save', exact: true }).click();
  // Why, from the history, as if told live; and the lock states are read again at once.
  await expect(alice.getByTestId('lock-lost-cause')).toHaveText(/^admin force-released it at /);
  await expect(alice.getByTestId('lock-lost-reason')).toHaveText('Reason: supplier audit');
  await expect(alice.getByTestId('table-status')).toHaveText('Normal');
  await expect(
    alice.getByText(/^Nothing was saved: your lock on this table has ended/),
  ).toBeVisible();
  await expect(edited).toHaveText('Renamed while offline');
  await expect(alice.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
  await expectAccessible(alice);
  await snap(alice, 'alice-save-refused-offline');
});
