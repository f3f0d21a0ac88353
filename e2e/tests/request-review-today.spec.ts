import pg from 'pg';
import { expectAccessible } from '../support/accessibility';
import { setApproval } from '../support/approvalPolicy';
import { expect, test } from '../support/fixtures';
import { graphql } from '../support/graphql';

test('bob opens a request some of whose rows no longer apply: the page says which and why before he approves', async ({
  app,
  signIn,
  snap,
  requestAs,
}) => {
  const database = new pg.Client({ connectionString: app.databaseUrl });
  await database.connect();
  const version = async (id: number) =>
    (
      await database.query<{ version: string }>(
        'SELECT xmin::text AS version FROM master.warehouses WHERE id = $1',
        [id],
      )
    ).rows[0]?.version;
  const [original] = (
    await database.query<{ name: string }>('SELECT name FROM master.warehouses WHERE id = 2')
  ).rows;
  const admin = await requestAs('admin');
  await setApproval(admin, 'warehouses', true);
  try {
    await database.query(
      "INSERT INTO master.regions (id, code, name) VALUES (990, 'R990', 'Review region')",
    );
    const alice = await requestAs('alice');
    const lock = await graphql(
      alice,
      'mutation { acquireTableLock(table: "warehouses") { token } }',
    );
    const held = lock.data?.acquireTableLock as { token: string } | undefined;
    const token = held?.token;
    const submitted = await graphql(
      alice,
      `mutation($token: String!, $changes: RowChanges!) {
        submitChangeRequest(table: "warehouses", token: $token, changes: $changes, comment: "Regions") {
          request { id }
        }
      }`,
      {
        token,
        changes: {
          updates: [
            { key: { id: '1' }, version: await version(1), values: { region_id: '990' } },
            { key: { id: '2' }, version: await version(2), values: { name: 'Review name' } },
            { key: { id: '3' }, version: await version(3), values: { name: 'Still fine' } },
          ],
        },
      },
    );
    const answer = submitted.data?.submitChangeRequest as { request: { id: string } } | undefined;
    const id = answer?.request.id;
    expect(id).toBeDefined();

    // Since submission: the region row 1 would point at is gone, row 2 was renamed.
    await database.query('DELETE FROM master.regions WHERE id = 990');
    await database.query("UPDATE master.warehouses SET name = 'Renamed outside' WHERE id = 2");

    const bob = await signIn('bob', `/requests/${id}`);
    const rows = bob.getByTestId('request-diff-row');
    await expect(rows).toHaveCount(3);
    const today = (index: number) => rows.nth(index).getByTestId('request-row-today');
    await expect(today(0)).toHaveAttribute('data-code', 'FOREIGN_KEY');
    await expect(today(0)).toContainText('990 is not in regions');
    await expect(today(1)).toHaveAttribute('data-code', 'ROW_CHANGED');
    await expect(today(1)).toContainText('Changed since it was submitted');
    await expect(today(1)).toContainText('Renamed outside');
    await expect(today(2)).toHaveText('Still applies');
    const approve = bob.getByRole('button', { name: 'Approve and apply' });
    await expect(approve).toHaveAccessibleDescription(
      /Approval would be refused now, and the request sent back to alice\. Rows that no longer apply: 2/,
    );
    await expectAccessible(bob);
    await snap(bob, 'request-rows-today');

    await bob.getByRole('button', { name: '日本語' }).click();
    await expect(today(1)).toContainText('申請後に変更されました');
    await expect(today(2)).toHaveText('そのまま反映できます');
    await expect(bob.getByRole('button', { name: '承認して反映' })).toHaveAccessibleDescription(
      /今承認すると拒否され/,
    );
    await expectAccessible(bob);
    await snap(bob, 'request-rows-today-ja');
  } finally {
    await database.query('UPDATE master.warehouses SET name = $1 WHERE id = 2', [original?.name]);
    await database.query('DELETE FROM master.regions WHERE id = 990');
    await database.end();
    await setApproval(admin, 'warehouses', false);
  }
});
