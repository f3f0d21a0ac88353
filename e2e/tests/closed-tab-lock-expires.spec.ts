import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { graphql } from '../support/graphql';
import { SHORT_PAGE_LEASE_SECONDS } from '../support/shortClocks';
import { expectLive, startEditing, tableRow } from '../support/tablePage';

// The lease the app's pages ask for (10 s on the short-clocks app this spec runs against; 30 s
// in production); the server's sweeper releases an expired lock within about a second.
const LEASE_MS = SHORT_PAGE_LEASE_SECONDS * 1000;

test('a lock whose tab was closed expires with its lease; bob sees it free without reloading', async ({
  openTableAs,
  signIn,
  snap,
}) => {
  // The lease runs out on the real clock, on top of the test's own steps.
  test.setTimeout(test.info().timeout + LEASE_MS);
  const bob = await signIn('bob');
  await expectLive(bob);
  const alice = await openTableAs('alice', 'categories');
  await startEditing(alice);

  const lease = await graphql(
    bob.request,
    '{ table(name: "categories") { acquiredAt leaseExpiresAt } }',
  );
  const table = lease.data?.table as { acquiredAt: string; leaseExpiresAt: string } | undefined;
  expect(Date.parse(table?.leaseExpiresAt ?? '') - Date.parse(table?.acquiredAt ?? '')).toBe(
    LEASE_MS,
  );

  const categories = tableRow(bob, 'categories');
  await expect(categories).toHaveAttribute('data-status', 'editing');
  await expect(categories.getByRole('button', { name: 'Edit', exact: true })).toBeDisabled();
  await expectAccessible(bob);
  await snap(bob, 'bob-sees-categories-being-edited');

  // alice's browser goes away without finishing: nothing tells the server, the renewals stop.
  await alice.context().close();
  await expect(categories).toHaveAttribute('data-status', 'normal', { timeout: LEASE_MS + 5_000 });
  await expectAccessible(bob);
  await snap(bob, 'bob-sees-categories-free');

  // It was the lease that ended it: the sweeper's expiry is in the history.
  const history = await graphql(
    bob.request,
    '{ lockEvents(filter: { table: "categories", actions: [expire] }) { events { actor editor } } }',
  );
  expect(history.data?.lockEvents).toEqual({ events: [{ actor: 'system', editor: 'alice' }] });

  await categories.getByRole('button', { name: 'Edit', exact: true }).click();
  await expect(bob.getByRole('dialog')).toBeVisible();
  await expectAccessible(bob);
  await bob.getByRole('dialog').getByRole('button', { name: 'Start editing' }).click();
  await expect(bob.getByTestId('table-status')).toHaveText('Editing (you)');
  await expectAccessible(bob);
  await snap(bob, 'bob-editing-categories');
});
