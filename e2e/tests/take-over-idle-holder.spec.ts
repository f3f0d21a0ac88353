import pg from 'pg';
import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { graphql } from '../support/graphql';
import { expectLive, startEditing } from '../support/tablePage';

const REASON = 'alice left for the day';

/**
 * alice's last activity on warehouses, as the database records it, a minute and a second
 * earlier: a minute of idleness without waiting it out on the real clock.
 */
async function idleAMinute(databaseUrl: string): Promise<void> {
  const database = new pg.Client({ connectionString: databaseUrl });
  await database.connect();
  try {
    const moved = await database.query(
      `UPDATE tablelock.table_lock SET last_active_at = last_active_at - interval '61 seconds'
       WHERE table_name = 'warehouses' AND editor = 'alice'`,
    );
    expect(moved.rowCount).toBe(1);
  } finally {
    await database.end();
  }
}

// The shortest idle limit the rule takes is a minute, and idleness is a fact of the database
// clock (its record of the holder's last activity): the test moves that record a minute back.
test('with the idle rule, an editor takes over the lock of a holder idle long enough; the holder is told', async ({
  app,
  openTableAs,
  signIn,
  snap,
}) => {
  const admin = await signIn('admin');
  try {
    await admin.goto('/admin/table-settings');
    const rule = admin.getByRole('region', { name: 'Take-over rule' });
    await rule
      .getByRole('radio', { name: 'Also any editor, once the holder has been idle' })
      .check();
    await rule.getByLabel('Idle for at least (minutes)').fill('1');
    await rule.getByRole('button', { name: 'Save' }).click();
    await expect(admin.getByText('Take-over rule saved.')).toBeVisible();
    await expectAccessible(admin);

    const alice = await openTableAs('alice', 'warehouses');
    // The first renewal tells the server of her last activity (starting to edit); she shows
    // none after it.
    const renewed = alice.waitForResponse(
      (response) =>
        response.url().endsWith('/graphql') &&
        Boolean(response.request().postData()?.includes('RenewTableLock')),
    );
    await startEditing(alice, ['regions']);
    await expectLive(alice);

    const bob = await openTableAs('bob', 'warehouses');
    await expect(bob.getByRole('button', { name: 'Take over' })).toHaveCount(0);

    await renewed;
    await idleAMinute(app.databaseUrl);
    // Once alice has been idle a minute, bob's page (loaded again) offers the take-over.
    await expect(async () => {
      await bob.reload();
      await expect(bob.getByRole('button', { name: 'Take over' })).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 120_000, intervals: [5_000] });
    await expectAccessible(bob);
    await bob.getByRole('button', { name: 'Take over' }).click();
    const dialog = bob.getByRole('dialog');
    await dialog.getByRole('textbox').fill(REASON);
    await dialog.getByRole('button', { name: 'Next' }).click();
    await expectAccessible(bob);
    await dialog.getByRole('button', { name: 'Take over now' }).click();
    await expect(bob.getByTestId('table-status')).toHaveText('Editing (you)');
    await snap(bob, 'bob-took-over-idle-holder');

    await expect(alice.getByTestId('lock-lost-cause')).toHaveText(/^bob took it over at /);
    await expect(alice.getByTestId('lock-lost-reason')).toHaveText(`Reason: ${REASON}`);
    await expectAccessible(alice);
    await snap(alice, 'alice-told-idle-take-over');
  } finally {
    await graphql(
      admin.request,
      'mutation { setTakeOverRule(rule: own_sessions, idleMinutes: 15) { rule } }',
    );
  }
});
