import pg from 'pg';
import { expectAccessible } from '../support/accessibility';
import { setApproval } from '../support/approvalPolicy';
import { expect, test } from '../support/fixtures';
import { graphql } from '../support/graphql';
import { cell, editCell, rowId, startEditing } from '../support/tablePage';

test('alice asks to keep customers after approval; once bob approves, she goes on editing', async ({
  app,
  openTableAs,
  snap,
  requestAs,
}) => {
  const database = new pg.Client({ connectionString: app.databaseUrl });
  await database.connect();
  const [original] = (
    await database.query<{ note: string | null }>('SELECT note FROM master.customers WHERE id = 3')
  ).rows;
  const admin = await requestAs('admin');
  await setApproval(admin, 'customers', true);
  try {
    const alice = await openTableAs('alice', 'customers');
    await startEditing(alice, ['regions']);
    await editCell(cell(alice, rowId('3'), 'note'), 'Kept after approval');
    await alice.getByRole('button', { name: 'Submit for approval' }).click();
    const dialog = alice.getByRole('dialog');
    await dialog.getByLabel('Keep the table after approval, to go on editing').check();
    await expectAccessible(alice);
    await dialog.getByRole('button', { name: 'Submit for approval' }).click();
    await expect(alice.getByTestId('own-request')).toContainText('Pending approval');

    const bob = await requestAs('bob');
    const queue = await graphql(
      bob,
      '{ changeRequests(filter: { toDecide: true, table: "customers" }) { requests { id } } }',
    );
    const page = queue.data?.changeRequests as { requests: { id: string }[] } | undefined;
    const request = page?.requests[0];
    const approved = await graphql(
      bob,
      'mutation($id: ID!) { approveChangeRequest(id: $id) { state } }',
      { id: request?.id },
    );
    expect(approved.data).toEqual({ approveChangeRequest: { state: 'applied' } });

    // The lock came back to alice, not to the pool: she picks it up where she left off.
    const own = alice.getByTestId('own-request');
    await expect(own).toContainText('Approved and applied');
    await expect(cell(alice, rowId('3'), 'note')).toHaveText('Kept after approval');
    await expectAccessible(alice);
    await snap(alice, 'approved-kept');
    await own.getByRole('button', { name: 'Go on editing' }).click();
    await expect(alice.getByTestId('table-status')).toHaveText('Editing (you)');
    await expectAccessible(alice);
  } finally {
    await database.query('UPDATE master.customers SET note = $1 WHERE id = 3', [original?.note]);
    await database.end();
    await setApproval(admin, 'customers', false);
  }
});
