import type { APIRequestContext, Page } from '@playwright/test';
import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { graphql } from '../support/graphql';
import { expectNoSidewaysScroll } from '../support/screenFit';
import { cell, openTable, rowId } from '../support/tablePage';

const DAY = 24 * 60 * 60 * 1000;

/** `user` schedules `values` for row `id` of `table` at `effectiveAt`; the request's id. */
async function scheduleChange(
  request: APIRequestContext,
  table: string,
  id: string,
  values: Record<string, string>,
  effectiveAt: Date,
): Promise<string> {
  const lock = await graphql(
    request,
    'mutation($table: String!) { acquireTableLock(table: $table) { token } }',
    { table },
  );
  const token = (lock.data?.acquireTableLock as { token: string } | undefined)?.token;
  const read = await graphql(
    request,
    'query($table: String!, $filter: [RowFilter!]) { rows(table: $table, filter: $filter) { rows { key version } } }',
    { table, filter: [{ column: 'id', operator: 'equals', value: id }] },
  );
  const found = read.data?.rows as { rows: { key: object; version: string }[] } | undefined;
  const row = found?.rows[0];
  if (!token || !row) throw new Error(`cannot schedule: ${JSON.stringify([lock, read])}`);
  const submitted = await graphql(
    request,
    `mutation($table: String!, $token: String!, $changes: RowChanges!, $effectiveAt: DateTime) {
       submitChangeRequest(table: $table, token: $token, changes: $changes, effectiveAt: $effectiveAt) {
         request { id state }
       }
     }`,
    {
      table,
      token,
      changes: { updates: [{ key: row.key, version: row.version, values }] },
      effectiveAt: effectiveAt.toISOString(),
    },
  );
  const made = (submitted.data?.submitChangeRequest as { request: { id: string } | null })?.request;
  if (!made) throw new Error(`not scheduled: ${JSON.stringify(submitted)}`);
  return made.id;
}

/** The `datetime-local` value of an instant in the page's time zone. */
const localInput = (page: Page, instant: Date) =>
  page.evaluate((ms) => {
    const at = new Date(ms);
    const pad = (value: number) => String(value).padStart(2, '0');
    return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
  }, instant.getTime());

test('the grid shows the table as scheduled changes will make it, marked, and goes back to today', async ({
  signIn,
  requestAs,
  snap,
}) => {
  const bob = await requestAs('bob');
  const requestId = await scheduleChange(
    bob,
    'warehouses',
    '2',
    { name: 'Osaka (moved)' },
    new Date(Date.now() + DAY),
  );
  try {
    const carol = await signIn('carol');
    await carol.setViewportSize({ width: 1400, height: 900 });
    await openTable(carol, 'warehouses');
    const name = cell(carol, rowId('2'), 'name');

    await carol.getByRole('button', { name: 'Show as of…' }).click();
    await carol
      .getByLabel('Date and time')
      .fill(await localInput(carol, new Date(Date.now() + 2 * DAY)));
    await expect(carol.getByTestId('as-of-form')).toContainText('Your time zone:');
    await snap(carol, 'as-of-form-1400-en');
    await carol.getByRole('button', { name: 'Show', exact: true }).click();

    await expect(carol.getByTestId('as-of-banner')).toContainText('Showing warehouses as of');
    await expect(name).toHaveText('Osaka (moved)');
    await expect(name).toHaveClass(/cell-scheduled/);
    await expect(cell(carol, rowId('1'), 'name')).not.toHaveClass(/cell-scheduled/);
    await name.hover();
    await expect(carol.locator('.ag-tooltip')).toContainText(`Change request #${requestId} at`);
    await expectAccessible(carol);
    await snap(carol, 'as-of-future-1400-en');

    await carol.getByRole('button', { name: '日本語' }).click();
    await expect(carol.getByTestId('as-of-banner')).toContainText('時点の warehouses を表示中');
    // A new language builds a new grid: its rows are read again, at the same time.
    await expect(name).toHaveText('Osaka (moved)');
    await expect(name).toHaveClass(/cell-scheduled/);
    await snap(carol, 'as-of-future-1400-ja');
    await carol.setViewportSize({ width: 390, height: 844 });
    await expectNoSidewaysScroll(carol);
    await snap(carol, 'as-of-future-390-ja');
    await carol.setViewportSize({ width: 1400, height: 900 });
    await carol.getByRole('button', { name: 'English' }).click();
    await expect(carol.getByTestId('as-of-banner')).toContainText('Showing warehouses as of');
    await expect(name).toHaveText('Osaka (moved)');
    await carol.setViewportSize({ width: 390, height: 844 });
    await expectNoSidewaysScroll(carol);
    await snap(carol, 'as-of-future-390-en');

    await carol.getByTestId('as-of-back').click();
    await expect(carol.getByTestId('as-of-banner')).toHaveCount(0);
    // Today's name is whatever the tests beside this one last saved: not the scheduled one.
    await expect(name).not.toHaveText('Osaka (moved)');
    await expect(name).not.toHaveClass(/cell-scheduled/);
    await carol.setViewportSize({ width: 1400, height: 900 });
    await snap(carol, 'as-of-back-1400-en');

    // Yesterday: the rows as they were, read-only, without marks.
    await carol.getByRole('button', { name: 'Show as of…' }).click();
    await carol
      .getByLabel('Date and time')
      .fill(await localInput(carol, new Date(Date.now() - DAY)));
    await carol.getByRole('button', { name: 'Show', exact: true }).click();
    await expect(carol.getByTestId('as-of-banner')).toContainText(
      'Showing warehouses as it was at',
    );
    // A day ago: every change since is undone, whoever made it (tests beside this one rename
    // this warehouse), which leaves the demo data's name, as the app's data template has it.
    await expect(name).toHaveText('Osaka bay');
    await expect(name).not.toHaveClass(/cell-scheduled/);
    await snap(carol, 'as-of-past-1400-en');
  } finally {
    await graphql(bob, 'mutation($id: ID!) { withdrawChangeRequest(id: $id) { state } }', {
      id: requestId,
    });
  }
});

test('whoever holds a table is told to release it before a change scheduled for it', async ({
  signIn,
  requestAs,
  snap,
}) => {
  const bob = await requestAs('bob');
  // Inside the scheduler's five-minute lead from the start: the warning comes as alice takes it.
  const requestId = await scheduleChange(
    bob,
    'customers',
    '3',
    { name: 'Customer three (renamed)' },
    new Date(Date.now() + 4 * 60 * 1000),
  );
  try {
    const alice = await signIn('alice');
    await alice.setViewportSize({ width: 1400, height: 900 });
    await openTable(alice, 'customers');
    await alice.getByRole('button', { name: 'Start editing' }).click();
    await alice.getByRole('dialog').getByRole('button', { name: 'Start editing' }).click();
    const warning = alice.getByTestId('due-soon-warning');
    await expect(warning).toContainText('customers has a change scheduled for');
    await expect(warning).toContainText(`Change request #${requestId}`);
    await expectAccessible(alice);
    await snap(alice, 'due-soon-1400-en');
    await alice.getByRole('button', { name: '日本語' }).click();
    await expect(warning).toContainText('それまでにロックを解除してください');
    await snap(alice, 'due-soon-1400-ja');
    await alice.setViewportSize({ width: 390, height: 844 });
    await snap(alice, 'due-soon-390-ja');
    await alice.setViewportSize({ width: 1400, height: 900 });
    await alice.getByRole('button', { name: 'English' }).click();
    await expect(warning).toContainText('customers has a change scheduled for');
    await alice.setViewportSize({ width: 390, height: 844 });
    await snap(alice, 'due-soon-390-en');
  } finally {
    await graphql(bob, 'mutation($id: ID!) { withdrawChangeRequest(id: $id) { state } }', {
      id: requestId,
    });
  }
});
