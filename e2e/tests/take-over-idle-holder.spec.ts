import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { graphql } from '../support/graphql';
import { expectLive, openTable, startEditing } from '../support/tablePage';

const REASON = 'alice left for the day';

// The shortest idle limit the rule takes is a minute, and idleness is a fact of the database
// clock: this test waits for that minute to pass.
test('with the idle rule, an editor takes over the lock of a holder idle long enough; the holder is told', async ({
  signIn,
  snap,
}) => {
  test.setTimeout(180_000);
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

    const alice = await signIn('alice');
    await openTable(alice, 'warehouses');
    await startEditing(alice, ['regions']);
    await expectLive(alice);

    const bob = await signIn('bob');
    await openTable(bob, 'warehouses');
    await expect(bob.getByRole('button', { name: 'Take over' })).toHaveCount(0);

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
