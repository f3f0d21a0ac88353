import type { APIRequestContext, Page } from '@playwright/test';
import { expectAccessible } from '../support/accessibility';
import { SHORTEST_IDLE_LIMIT_SECONDS } from '../support/appUnderTest';
import { test as base, expect } from '../support/fixtures';
import { graphql, storedRows } from '../support/graphql';
import { cell, editCell, expectLive, rowId, rowStatus, startEditing } from '../support/tablePage';

// warehouses gets the shortest idle limit the app under test allows (10 s; 60 s in production)
// for these tests: the countdown starts halfway, after 5 s without activity, and the server
// ends the lock at 10 s. The page learns its deadline from renewals, which come every few
// seconds on the short-clocks app this spec runs against (support/shortClocks.ts).
const TABLE = 'warehouses';
const IDLE_LIMIT_SECONDS = SHORTEST_IDLE_LIMIT_SECONDS;
// Past the limit, the server's sweeper (every second) or the page's last renewal ends the lock.
const UNTIL_RELEASED_MS = IDLE_LIMIT_SECONDS * 1000 + 5_000;

async function setIdleLimit(admin: APIRequestContext, seconds: number | null) {
  const answer = await graphql(
    admin,
    'mutation($t: String!, $s: Int) { setTableIdleLimit(table: $t, seconds: $s) { idleLimitSeconds } }',
    { t: TABLE, s: seconds },
  );
  expect(answer.errors).toBeUndefined();
}

async function expiriesSince(page: Page, from: Date) {
  const answer = await graphql(
    page.request,
    'query($t: String!, $from: DateTime) { lockEvents(filter: { table: $t, actions: [expire], from: $from }) { events { actor editor reason } } }',
    { t: TABLE, from: from.toISOString() },
  );
  const history = answer.data?.lockEvents as { events: unknown[] } | undefined;
  if (!history) throw new Error(`lockEvents failed: ${JSON.stringify(answer.errors)}`);
  return history.events;
}

const test = base.extend<{ admin: Page; alice: Page }>({
  /** An admin, who gives warehouses the short idle limit for the test and takes it back after. */
  admin: async ({ signIn }, use) => {
    const admin = await signIn('admin');
    await setIdleLimit(admin.request, IDLE_LIMIT_SECONDS);
    await use(admin);
    await setIdleLimit(admin.request, null);
  },
  /** alice, editing warehouses under that limit. */
  alice: async ({ admin: _limitSet, openTableAs }, use) => {
    const alice = await openTableAs('alice', TABLE);
    await startEditing(alice, ['regions']);
    await use(alice);
  },
});

test.describe('idle release', () => {
  // One after the other, on the worker that has the short-clocks app already.
  test.describe.configure({ mode: 'default' });
  // Each test waits out the idle limit on the real clocks of the page and the database.
  test.setTimeout(120_000);

  test('an idle holder is counted down, then released; the edits stay, and starting again flags the row bob changed meanwhile', async ({
    admin,
    alice,
    openTableAs,
    snap,
  }) => {
    const started = new Date();
    await expectLive(alice);
    await editCell(cell(alice, rowId('3'), 'name'), 'Fukuoka hub');
    await editCell(cell(alice, rowId('4'), 'name'), 'Rotterdam port');

    // alice goes to lunch: nothing happens on her page.
    const warning = alice.getByTestId('idle-warning');
    await expect(warning).toBeVisible({ timeout: UNTIL_RELEASED_MS });
    await expect(warning).toContainText(`Are you still editing ${TABLE}?`);
    await expect(alice.getByTestId('idle-countdown')).toHaveText(/released in 0:\d\d/);
    await expectAccessible(alice);
    await snap(alice, 'idle-countdown');

    const lost = alice.getByTestId('lock-lost');
    await expect(lost).toBeVisible({ timeout: UNTIL_RELEASED_MS });
    await expect(alice.getByTestId('lock-lost-cause')).toHaveText(
      /^It was released at .* because you were inactive for longer than the idle limit\.$/,
    );
    await expect(alice.getByTestId('lock-lost-reason')).toHaveCount(0);
    await expect(warning).toHaveCount(0);
    await expect(alice.getByTestId('table-status')).toHaveText('Normal');
    await expect(cell(alice, rowId('3'), 'name')).toHaveText('Fukuoka hub');
    await expect(cell(alice, rowId('4'), 'name')).toHaveText('Rotterdam port');
    await expect(alice.getByTestId('change-summary')).toContainText('2 unsaved changes');
    await expectAccessible(alice);
    await snap(alice, 'released-for-inactivity');
    expect(await expiriesSince(admin, started)).toEqual([
      { actor: 'system', editor: 'alice', reason: 'idle' },
    ]);

    // Meanwhile bob changes one of the rows alice had edited, and finishes.
    const bob = await openTableAs('bob', TABLE);
    await startEditing(bob, ['regions']);
    await editCell(cell(bob, rowId('4'), 'name'), 'Rotterdam (bob)');
    await bob.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(bob.getByText('Saved: 0 added, 1 changed, 0 deleted.')).toBeVisible();
    await bob.getByRole('button', { name: 'Finish editing' }).click();
    await expect(bob.getByTestId('table-status')).toHaveText('Normal');

    // alice starts again: her edits are sent with the row versions she read, so bob's row is
    // flagged and nothing is overwritten.
    await lost.getByRole('button', { name: 'Start editing again' }).click();
    await expect(alice.getByTestId('table-status')).toHaveText('Editing (you)');
    await expect(alice.getByTestId('change-summary')).toContainText('2 unsaved changes');
    await alice.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(rowStatus(alice, rowId('4'))).toHaveAttribute('data-row-state', 'error');
    await expect(rowStatus(alice, rowId('4'))).toContainText(
      'Changed by someone else since you loaded it',
    );
    await expectAccessible(alice);
    await snap(alice, 'started-again-conflict-flagged');
    const stored = async (id: string) =>
      (await storedRows(alice.request, TABLE, [{ column: 'id', operator: 'equals', value: id }]))[0]
        ?.name;
    expect(await stored('4')).toBe('Rotterdam (bob)');
    expect(await stored('3')).toBe('Fukuoka');

    // Undoing her change of bob's row, she saves the other one.
    await rowStatus(alice, rowId('4')).getByRole('button', { name: 'Undo' }).click();
    await alice.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(alice.getByText('Saved: 0 added, 1 changed, 0 deleted.')).toBeVisible();
    expect(await stored('3')).toBe('Fukuoka hub');
    expect(await stored('4')).toBe('Rotterdam (bob)');
    await alice.getByRole('button', { name: 'Finish editing' }).click();
    await expect(alice.getByTestId('table-status')).toHaveText('Normal');
  });

  test('Keep editing keeps the lock past the limit it was counting down to', async ({
    admin,
    alice,
    snap,
  }) => {
    const started = new Date();
    const warning = alice.getByTestId('idle-warning');
    await expect(warning).toBeVisible({ timeout: UNTIL_RELEASED_MS });
    await warning.getByRole('button', { name: 'Keep editing' }).click();
    await expect(warning).toHaveCount(0);
    await expectAccessible(alice);

    // Counted down again from the moment she kept editing: by the time it is down to a few
    // seconds, the limit of the first countdown has passed, and the lock is still hers.
    await expect(warning).toBeVisible({ timeout: UNTIL_RELEASED_MS });
    await expect(alice.getByTestId('idle-countdown')).toHaveText(/released in 0:0[0-4] /, {
      timeout: UNTIL_RELEASED_MS,
    });
    await expect(alice.getByTestId('table-status')).toHaveText('Editing (you)');
    await expect(alice.getByTestId('lock-lost')).toHaveCount(0);
    expect(await expiriesSince(admin, started)).toEqual([]);
    await snap(alice, 'countdown-again-after-keep-editing');

    await warning.getByRole('button', { name: 'Keep editing' }).click();
    await expect(warning).toHaveCount(0);
    await alice.getByRole('button', { name: 'Finish editing' }).click();
    await expect(alice.getByTestId('table-status')).toHaveText('Normal');
    expect(await expiriesSince(admin, started)).toEqual([]);
  });
});
