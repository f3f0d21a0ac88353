import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import { expectAccessible } from '../support/accessibility';
import { DEMO_PASSWORD, expect, test } from '../support/fixtures';
import { graphql, storedRows } from '../support/graphql';
import { cell, editCell, openTable, rowId, rowStatus, startEditing } from '../support/tablePage';

const byId = (id: string) => [{ column: 'id', operator: 'equals', value: id }];

/** Signs `user` in on a browser someone else used (its storage kept, its session gone). */
async function signInOnThisBrowser(context: BrowserContext, user: string): Promise<Page> {
  await context.clearCookies();
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByLabel('User name').fill(user);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('current-user')).toContainText(user);
  return page;
}

/** Takes warehouses through the API, renames one and gives the table back. */
async function renameWarehouse(request: APIRequestContext, id: string, name: string) {
  const lock = await graphql(
    request,
    'mutation { acquireTableLock(table: "warehouses") { token } }',
  );
  const { token } = (lock.data as { acquireTableLock: { token: string } }).acquireTableLock;
  const read = await graphql(
    request,
    'query($filter: [RowFilter!]) { rows(table: "warehouses", filter: $filter) { rows { version } } }',
    { filter: byId(id) },
  );
  const [row] = (read.data as { rows: { rows: { version: string }[] } }).rows.rows;
  const saved = await graphql(
    request,
    'mutation($token: String!, $changes: RowChanges!) { saveRows(table: "warehouses", token: $token, changes: $changes) { rowErrors { code } } }',
    { token, changes: { updates: [{ key: { id }, version: row?.version, values: { name } }] } },
  );
  expect(saved.errors).toBeUndefined();
  const released = await graphql(
    request,
    'mutation($token: String!) { releaseTableLock(table: "warehouses", token: $token) { status } }',
    { token },
  );
  expect(released.errors).toBeUndefined();
}

// Issue 42: unsaved edits were lost on a reload, a crash or a closed tab (the lock survived, an
// hour of pasting did not).
test('unsaved edits come back after a reload and after a crash; a row changed meanwhile is a conflict', async ({
  openTableAs,
  requestAs,
  snap,
}) => {
  const alice = await openTableAs('alice', 'warehouses');
  await startEditing(alice, ['regions']);
  await editCell(cell(alice, rowId('1'), 'name'), 'Tokyo draft');
  await editCell(cell(alice, rowId('2'), 'name'), 'Osaka draft');
  await editCell(cell(alice, rowId('3'), 'capacity_m3'), '12345.5');
  await expect(alice.getByText('3 unsaved changes')).toBeVisible();

  // A reload keeps the lock (this tab's session resumes) and offers the edits back.
  await alice.reload({ waitUntil: 'commit' });
  const offer = alice.getByTestId('draft-offer');
  await expect(offer).toContainText('You have 3 unsaved changes to this table from');
  await expect(alice.getByRole('button', { name: 'Finish editing' })).toBeVisible();
  await expectAccessible(alice);
  await snap(alice, 'draft-offered-after-reload');
  await offer.getByRole('button', { name: 'Restore' }).click();
  await expect(offer).toHaveCount(0);
  await expect(alice.getByText('3 unsaved changes')).toBeVisible();
  await expect(cell(alice, rowId('1'), 'name')).toHaveText('Tokyo draft');
  await expect(cell(alice, rowId('3'), 'capacity_m3')).toHaveText('12,345.5');

  // The tab crashes (no chance to warn about unsaved edits); her lock is force-released and
  // bob changes one of her rows meanwhile.
  const context = alice.context();
  await alice.close({ runBeforeUnload: false });
  const admin = await requestAs('admin');
  const released = await graphql(
    admin,
    'mutation { forceRelease(table: "warehouses", reason: "alice crashed") { status } }',
  );
  expect(released.errors).toBeUndefined();
  const bob = await requestAs('bob');
  expect((await storedRows(bob, 'warehouses', byId('2')))[0]?.name).toBe('Osaka bay');
  await renameWarehouse(bob, '2', 'Osaka by bob');

  // A new tab of the same browser: the draft is waiting for her to start editing.
  const again = await context.newPage();
  await openTable(again, 'warehouses');
  await expect(again.getByTestId('draft-offer')).toContainText('Start editing to restore them.');
  // Cells stay closed until she restores or discards the draft.
  await again.getByRole('button', { name: 'Start editing' }).click();
  await again.getByRole('dialog').getByRole('button', { name: 'Start editing' }).click();
  await expect(again.getByTestId('table-status')).toHaveText('Editing (you)');
  await again.getByTestId('draft-offer').getByRole('button', { name: 'Restore' }).click();
  await expect(again.getByRole('columnheader', { name: 'Changes', exact: true })).toBeVisible();
  await expect(again.getByText('3 unsaved changes')).toBeVisible();
  await again.getByRole('button', { name: 'Save', exact: true }).click();
  // Her change to the row bob changed is refused, never written over his.
  await expect(rowStatus(again, rowId('2'))).toHaveAttribute('title', /Changed by someone else/);
  expect((await storedRows(bob, 'warehouses', byId('2')))[0]?.name).toBe('Osaka by bob');
  await expectAccessible(again);
  await snap(again, 'restored-draft-conflict');

  // Her draft is still kept (nothing was saved). bob signs in on the same browser: it is not
  // offered to him, and his own start does not overwrite it.
  await again.close({ runBeforeUnload: false });
  const forced = await graphql(
    admin,
    'mutation { forceRelease(table: "warehouses", reason: "alice left") { status } }',
  );
  expect(forced.errors).toBeUndefined();
  const bobsPage = await signInOnThisBrowser(context, 'bob');
  await openTable(bobsPage, 'warehouses');
  // Cells open (and the Changes column shows) only once the page knows of no draft to offer.
  await startEditing(bobsPage, ['regions']);
  await expect(bobsPage.getByTestId('draft-offer')).toHaveCount(0);
  await expect(bobsPage.getByText('No unsaved changes')).toBeVisible();
  await bobsPage.getByRole('button', { name: 'Finish editing' }).click();
  await expect(bobsPage.getByTestId('table-status')).toHaveText('Normal');

  const alicesPage = await signInOnThisBrowser(context, 'alice');
  await openTable(alicesPage, 'warehouses');
  await expect(alicesPage.getByTestId('draft-offer')).toContainText('You have 3 unsaved changes');
});
