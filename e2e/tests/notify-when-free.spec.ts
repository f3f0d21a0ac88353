import type { Page } from '@playwright/test';
import { expectAccessible } from '../support/accessibility';
import { type DemoUser, expect, test } from '../support/fixtures';
import { expectLive, openTable, startEditing, tableRow } from '../support/tablePage';

const FK_TARGETS = ['categories', 'currencies', 'suppliers'];

/** Bob edits products; alice opens it and joins the line for it. */
async function aliceWaitsForBob(openTableAs: (user: DemoUser, table: string) => Promise<Page>) {
  const bob = await openTableAs('bob', 'products');
  await startEditing(bob, FK_TARGETS);
  await expectLive(bob);
  const alice = await openTableAs('alice', 'products');
  await joinLineForProducts(alice);
  return { alice, bob };
}

/** The page, on products, which bob is editing, joins the line for it. */
async function joinLineForProducts(page: Page): Promise<void> {
  await expectLive(page);
  await expect(page.locator('.block-reason')).toHaveText('Being edited by bob');
  await page.getByRole('button', { name: 'Notify me when free' }).click();
  await expect(page.getByTestId('queue-place')).toContainText('You are number 1 in line');
}

test('alice waits for products while bob edits it, and starts editing when her turn comes', async ({
  openTableAs,
  signIn,
  snap,
}) => {
  const { alice, bob } = await aliceWaitsForBob(openTableAs);
  // Waiting, she cannot start: her turn's prompt will offer it.
  await expect(alice.getByRole('button', { name: 'Start editing' })).toHaveCount(0);
  await expect(alice.getByRole('button', { name: 'Leave the line' })).toBeVisible();
  await expectAccessible(alice);
  await snap(alice, 'alice-number-1-in-line');

  await expect(bob.getByTestId('waiting-line')).toHaveText('1 waiting: alice');
  await expectAccessible(bob);
  await snap(bob, 'bob-sees-alice-waiting');

  // Viewers see the line, but cannot join it.
  const carol = await signIn('carol');
  await expect(tableRow(carol, 'products').getByTestId('waiting-count')).toHaveText('1 waiting');
  await openTable(carol, 'products');
  await expect(carol.getByTestId('waiting-line')).toHaveText('1 waiting: alice');
  await expect(carol.getByRole('button', { name: 'Notify me when free' })).toHaveCount(0);

  await bob.getByRole('button', { name: 'Finish editing' }).click();
  const turn = alice.getByTestId('your-turn');
  await expect(turn).toContainText('Your turn: products is free for you');
  await expect(turn.getByTestId('turn-countdown')).toHaveText(
    /^It is held for you for \d+ more seconds\./,
  );
  await expect(alice).toHaveTitle('(Your turn) products — tablelock');
  // Her turn is not a wait: her own page lists nobody waiting, the others see it held for her.
  await expect(alice.getByTestId('waiting-line')).toHaveCount(0);
  await expect(bob.getByTestId('waiting-line')).toHaveText('Held for alice, whose turn it is');
  await expect(carol.getByTestId('waiting-line')).toHaveText('Held for alice, whose turn it is');
  await expectAccessible(alice);
  await snap(alice, 'alice-your-turn');

  await startEditing(alice, FK_TARGETS);
  await expect(turn).toHaveCount(0);
  await expect(alice).toHaveTitle('products — tablelock');
  await expect(bob.getByTestId('lock-summary')).toContainText('Being edited by alice');
  await expect(bob.getByTestId('table-status')).toHaveText('Editing');
  await expect(bob.getByTestId('waiting-line')).toHaveCount(0);
  await expectAccessible(bob);
  await snap(bob, 'bob-sees-alice-editing');
});

test('leaving the page or saying "Not now" takes alice out of the line at once', async ({
  openTableAs,
  snap,
}) => {
  const { alice, bob } = await aliceWaitsForBob(openTableAs);
  await expect(bob.getByTestId('waiting-line')).toHaveText('1 waiting: alice');
  await alice.getByRole('link', { name: 'Tables', exact: true }).click();
  await expect(bob.getByTestId('waiting-line')).toHaveCount(0);

  await openTable(alice, 'products');
  await joinLineForProducts(alice);
  await expect(bob.getByTestId('waiting-line')).toHaveText('1 waiting: alice');
  await bob.getByRole('button', { name: 'Finish editing' }).click();
  await expect(alice.getByTestId('your-turn')).toBeVisible();
  // The table is held for alice: bob cannot start again meanwhile.
  await expect(bob.locator('.block-reason')).toHaveText('Free, but alice is waiting for it first');
  await expect(bob.getByRole('button', { name: 'Start editing' })).toBeDisabled();
  await expectAccessible(bob);
  await snap(bob, 'bob-sees-table-held-for-alice');

  await alice.getByRole('button', { name: 'Not now' }).click();
  await expect(alice.getByTestId('your-turn')).toHaveCount(0);
  await expect(bob.getByTestId('waiting-line')).toHaveCount(0);
  await expect(bob.getByRole('button', { name: 'Start editing' })).toBeEnabled();
  await expect(alice.getByRole('button', { name: 'Start editing' })).toBeEnabled();
  await expectAccessible(alice);
  await snap(alice, 'alice-said-not-now');
});
