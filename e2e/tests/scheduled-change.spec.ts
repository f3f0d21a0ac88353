import type { Page } from '@playwright/test';
import pg from 'pg';
import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { graphql } from '../support/graphql';
import { cell, editCell, expectLive, rowId, startEditing } from '../support/tablePage';

// How far ahead alice schedules her change: long enough for bob to lock, save and finish on a
// busy machine, short enough for a test. If bob still holds the table then, the request waits
// in line for him (decision 0023): either way it applies once he has finished.
const AHEAD_MS = 20_000;
// Its time, plus the wait in line behind bob and the scheduler's few seconds, on a busy machine.
const APPLIED_WITHIN_MS = AHEAD_MS + 40_000;
// Lateness under 2 s is the scheduler's ordinary delay, and not shown (ScheduleFacts).
const LATE_BY_SECONDS = 3;

/** A time `ms` from now as the dialog's input takes it: the browser's local time, to the second. */
const localInputIn = (page: Page, ms: number) =>
  page.evaluate((ahead) => {
    const at = new Date(Date.now() + ahead);
    const pad = (value: number) => String(value).padStart(2, '0');
    return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
  }, ms);

/** Marks a page; still marked later, it was not reloaded in between. */
const markPage = (page: Page) =>
  page.evaluate(() => {
    (globalThis as { e2eSamePage?: boolean }).e2eSamePage = true;
  });
const samePage = (page: Page) =>
  page.evaluate(() => (globalThis as { e2eSamePage?: boolean }).e2eSamePage === true);

test('alice schedules a price change and releases her lock; bob edits meanwhile; at its time it appears live in both grids and the calendar shows it applied (en, ja)', async ({
  openTableAs,
  signIn,
  snap,
}, testInfo) => {
  const price = `${700 + testInfo.retry}.25`;
  const alice = await openTableAs('alice', 'products');
  await expectLive(alice);
  await markPage(alice);
  const alicePrice = cell(alice, rowId('1'), 'unit_price');
  const before = (await alicePrice.textContent()) ?? '';
  await startEditing(alice, ['categories', 'currencies', 'suppliers']);
  await editCell(alicePrice, price);

  await alice.getByRole('button', { name: 'Apply on…' }).click();
  const dialog = alice.getByRole('dialog');
  await expect(dialog.getByRole('heading')).toHaveText('Apply the changes on a date');
  await expect(dialog.getByTestId('time-zone')).toHaveText(/^Time zone: \S+/);
  const when = dialog.getByLabel('Takes effect on');
  // A time gone by is refused, in words, and the dialog stays open to correct it.
  await when.fill(await localInputIn(alice, -60_000));
  await dialog.getByRole('button', { name: 'Schedule' }).click();
  await expect(dialog.getByTestId('schedule-error')).toHaveText(
    'That time has passed. Choose a time to come, or save to apply the changes now.',
  );
  await expectAccessible(alice);
  await snap(alice, 'apply-on-refused');
  await when.fill(await localInputIn(alice, AHEAD_MS));
  await dialog.getByRole('button', { name: 'Schedule' }).click();

  const notices = alice.getByTestId('notices');
  await expect(notices).toContainText(/Change request #\d+ is scheduled: it takes effect on /);
  const id = (await notices.textContent())?.match(/Change request #(\d+) is scheduled/)?.[1];
  expect(id).toBeDefined();
  // The changes live in the request now: gone from the grid, and the lock is given back.
  await expect(alice.getByRole('button', { name: 'Start editing' })).toBeVisible();
  await expect(alicePrice).toHaveText(before);

  // The calendar lists it before its time.
  const calendar = await signIn('alice', '/calendar');
  await expectLive(calendar);
  const entry = calendar.getByTestId(`calendar-request-${id}`);
  await expect(entry).toContainText('products');
  await expect(entry).toContainText(`#${id} by alice`);
  await expect(entry.getByTestId('calendar-request-state')).toHaveText('Scheduled');
  await expectAccessible(calendar);
  await snap(calendar, 'calendar-scheduled');

  // bob edits the same table meanwhile: the request holds no lock.
  const bob = await openTableAs('bob', 'products');
  await expectLive(bob);
  await markPage(bob);
  await startEditing(bob);
  // Another row's price: it saves beside alice's request, which checks only its own row.
  await editCell(cell(bob, rowId('2'), 'unit_price'), `${160 + testInfo.retry}.50`);
  await bob.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(bob.getByText('Saved: 0 added, 1 changed, 0 deleted.')).toBeVisible();
  await bob.getByRole('button', { name: 'Finish editing' }).click();
  await expect(bob.getByRole('button', { name: 'Start editing' })).toBeVisible();

  // At its time the change appears in both grids, without a reload.
  await expect(alicePrice).toHaveText(price, { timeout: APPLIED_WITHIN_MS });
  await expect(cell(bob, rowId('1'), 'unit_price')).toHaveText(price);
  expect(await samePage(alice)).toBe(true);
  expect(await samePage(bob)).toBe(true);
  await expect(entry.getByTestId('calendar-request-state')).toHaveText('Applied at its time');
  await snap(calendar, 'calendar-applied');

  // My requests: applied, with its time.
  await calendar.goto('/requests/mine');
  const mine = calendar.getByTestId(`own-request-${id}`);
  await expect(mine.getByTestId('own-request-state')).toHaveText('Applied at its time');
  await expect(mine.getByTestId('effective-at')).toContainText('Takes effect on');
  await expectAccessible(calendar);

  await calendar.getByRole('link', { name: 'Calendar' }).click();
  await calendar.getByRole('button', { name: '日本語' }).click();
  await expect(calendar.getByRole('heading', { level: 1 })).toHaveText('カレンダー');
  await expect(entry.getByTestId('calendar-request-state')).toHaveText('予約時刻に反映済み');
  await expect(entry).toContainText(`#${id}（alice）`);
  await expectAccessible(calendar);
  await snap(calendar, 'calendar-applied-ja');
});

/** A table of the test's own (a try of its own), with one row: none beside it is slowed. */
async function createOwnTable(databaseUrl: string, admin: Page, table: string) {
  const database = new pg.Client({ connectionString: databaseUrl });
  await database.connect();
  try {
    await database.query(
      `CREATE TABLE master.${table} (id integer PRIMARY KEY, name text NOT NULL);
       INSERT INTO master.${table} VALUES (1, 'Net 30');`,
    );
  } finally {
    await database.end();
  }
  const synced = await graphql(admin.request, 'mutation { syncTableRegistry { added } }');
  expect(synced.errors).toBeUndefined();
}

/** A table of the test's own that needs approval. */
async function createApprovalTable(databaseUrl: string, admin: Page, table: string) {
  await createOwnTable(databaseUrl, admin, table);
  const policy = await graphql(
    admin.request,
    `mutation { setTablePolicy(table: "${table}", policy: { changesNeedApproval: true, approverRoles: [editor] }) { table } }`,
  );
  expect(policy.errors).toBeUndefined();
}

test('on a table that needs approval the dialog says so; the request waits for approval without the lock, and alice moves it (a past time refused in words) and withdraws it in My requests', async ({
  app,
  signIn,
  openTableAs,
  snap,
}, testInfo) => {
  const table = `scheduled_terms_${testInfo.retry}`;
  await createApprovalTable(app.databaseUrl, await signIn('admin'), table);
  const alice = await openTableAs('alice', table);
  await startEditing(alice);
  await editCell(cell(alice, rowId('1'), 'name'), 'Net 45');
  await alice.getByRole('button', { name: 'Apply on…' }).click();
  const dialog = alice.getByRole('dialog');
  await expect(dialog.getByTestId('schedule-needs-approval')).toHaveText(
    'Changes to this table need approval: another person approves the request first, then it waits for its time.',
  );
  // The time it offers: an hour ahead.
  await dialog.getByRole('button', { name: 'Schedule' }).click();
  const notices = alice.getByTestId('notices');
  await expect(notices).toContainText(/Change request #\d+ waits for approval; once approved/);
  const id = (await notices.textContent())?.match(/Change request #(\d+) waits/)?.[1];
  expect(id).toBeDefined();
  // It holds no lock: she may start editing again at once.
  await expect(alice.getByRole('button', { name: 'Start editing' })).toBeEnabled();

  await alice.goto('/requests/mine');
  const entry = alice.getByTestId('own-waiting').getByTestId(`own-request-${id}`);
  await expect(entry.getByTestId('own-request-state')).toHaveText('Pending approval');
  const planned = entry.getByTestId('effective-at');
  await expect(planned).toContainText('Takes effect on');
  const before = await planned.textContent();

  await entry.getByRole('button', { name: 'Move' }).click();
  const move = alice.getByRole('dialog');
  await expect(move.getByRole('heading')).toHaveText(`Move change request #${id}`);
  const when = move.getByLabel('Takes effect on');
  await when.fill(await localInputIn(alice, -3_600_000));
  await move.getByRole('button', { name: 'Move' }).click();
  await expect(move.getByTestId('schedule-error')).toHaveText(
    'That time has passed. Choose a time to come, or save to apply the changes now.',
  );
  await expectAccessible(alice);
  await snap(alice, 'move-refused');
  await when.fill(await localInputIn(alice, 2 * 3_600_000));
  await move.getByRole('button', { name: 'Move' }).click();
  await expect(notices).toContainText(`Change request #${id} now takes effect on`);
  await expect(planned).not.toHaveText(before ?? '');

  await entry.getByRole('button', { name: 'Withdraw' }).click();
  await alice.getByRole('dialog').getByRole('button', { name: 'Withdraw' }).click();
  await expect(notices).toContainText(`Change request #${id} is withdrawn.`);
  const withdrawn = alice.getByTestId('own-decided').getByTestId(`own-request-${id}`);
  await expect(withdrawn.getByTestId('own-request-state')).toHaveText('Withdrawn');
  await expect(withdrawn.getByRole('button', { name: 'Move' })).toHaveCount(0);
});

test('a scheduled change whose row bob changes before its time fails: alice is told on another page, and My requests names the row and why (en, ja)', async ({
  openTableAs,
  signIn,
  snap,
}, testInfo) => {
  // A row of its own: the other test changes rows 1 and 2.
  const row = rowId('3');
  const alice = await openTableAs('alice', 'products');
  const bob = await openTableAs('bob', 'products');
  await expectLive(bob);
  await startEditing(alice);
  await editCell(cell(alice, row, 'unit_price'), `${900 + testInfo.retry}.75`);
  await alice.getByRole('button', { name: 'Apply on…' }).click();
  const dialog = alice.getByRole('dialog');
  await dialog.getByLabel('Takes effect on').fill(await localInputIn(alice, AHEAD_MS));
  await dialog.getByRole('button', { name: 'Schedule' }).click();
  const notices = alice.getByTestId('notices');
  await expect(notices).toContainText(/Change request #\d+ is scheduled/);
  const id = (await notices.textContent())?.match(/Change request #(\d+) is scheduled/)?.[1];
  expect(id).toBeDefined();

  // bob changes the row before its time (should he still hold the table then, the request
  // waits in line for him): either way it finds the row changed since it was made.
  await startEditing(bob);
  await editCell(cell(bob, row, 'unit_price'), `${800 + testInfo.retry}.10`);
  await bob.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(bob.getByText('Saved: 0 added, 1 changed, 0 deleted.')).toBeVisible();
  await bob.getByRole('button', { name: 'Finish editing' }).click();

  const elsewhere = await signIn('alice', '/calendar');
  await expectLive(elsewhere);
  await expect(elsewhere.getByTestId('notices')).toContainText(
    `Your change request #${id} on products could not be applied at its time.`,
    { timeout: APPLIED_WITHIN_MS },
  );
  await expect(
    elsewhere.getByTestId(`calendar-request-${id}`).getByTestId('calendar-request-state'),
  ).toHaveText('Failed at its time');
  await elsewhere.getByRole('link', { name: 'See My requests' }).click();
  const failed = elsewhere.getByTestId('own-decided').getByTestId(`own-request-${id}`);
  await expect(failed.getByTestId('schedule-failure')).toHaveText(
    'Nothing was written: rows changed since the request was made, or no longer save.id=3: Changed since it was submitted',
  );
  await expect(failed.getByRole('button', { name: 'Move' })).toHaveCount(0);
  await expect(cell(bob, row, 'unit_price')).toHaveText(`${800 + testInfo.retry}.10`);
  await expectAccessible(elsewhere);
  await snap(elsewhere, 'my-requests-failed');
  await elsewhere.getByRole('button', { name: '日本語' }).click();
  await expect(failed.getByTestId('schedule-failure')).toContainText(
    'id=3: 申請後に変更されました',
  );
});

test("alice's import joins an edition with Apply on… (a past time refused first), keeping her lock: the edition waits for it, and once she finishes the file's rows appear live, applied late", async ({
  app,
  signIn,
  openTableAs,
  snap,
}, testInfo) => {
  const table = `scheduled_import_${testInfo.retry}`;
  await createOwnTable(app.databaseUrl, await signIn('admin'), table);
  const alice = await openTableAs('alice', table);
  await expectLive(alice);
  await markPage(alice);
  // Its time leaves room for the import's steps on a busy machine.
  const edition = await graphql(
    alice.request,
    'mutation ($name: String!, $at: DateTime!) { createEdition(name: $name, effectiveAt: $at) { id } }',
    { name: `Import ${testInfo.retry}`, at: new Date(Date.now() + AHEAD_MS).toISOString() },
  );
  expect(edition.errors).toBeUndefined();
  const editionId = (edition.data as { createEdition: { id: string } }).createEdition.id;
  await startEditing(alice);

  await alice.getByRole('button', { name: 'Import CSV/XLSX' }).click();
  const dialog = alice.getByRole('dialog');
  await dialog.getByLabel(/^File/).setInputFiles({
    name: 'terms.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('id,name\r\n1,Net 60\r\n2,Cash on delivery\r\n'),
  });
  await dialog.getByRole('button', { name: 'Dry run' }).click();
  await expect(dialog.getByTestId('import-file-name')).toContainText('terms.csv');
  await dialog.getByRole('button', { name: 'Apply on…' }).click();
  await expect(dialog).toContainText(
    'Nothing is written now: the rows this dry run creates or updates (rows: 2) become a change request',
  );
  await dialog.getByLabel('Takes effect on').fill(await localInputIn(alice, -60_000));
  await dialog.getByRole('button', { name: 'Schedule' }).click();
  await expect(dialog.getByTestId('schedule-error')).toHaveText(
    'That time has passed. Choose a time to come, or save to apply the changes now.',
  );
  await dialog.getByLabel('Edition').selectOption(editionId);
  await expect(dialog.getByLabel('Takes effect on')).toHaveCount(0);
  await dialog.getByLabel(/^Keep my lock/).check();
  await expectAccessible(alice);
  await snap(alice, 'import-apply-on-edition');
  await dialog.getByRole('button', { name: 'Schedule' }).click();

  const notices = alice.getByTestId('notices');
  await expect(notices).toContainText(/Change request #\d+ is scheduled: it takes effect on /);
  const id = (await notices.textContent())?.match(/Change request #(\d+) is scheduled/)?.[1];
  expect(id).toBeDefined();
  await expect(alice.getByRole('dialog')).toHaveCount(0);
  await expect(alice.getByRole('button', { name: 'Finish editing' })).toBeVisible();
  await expect(cell(alice, rowId('1'), 'name')).toHaveText('Net 30');

  // At its time the edition waits in line for alice's lock; a few seconds on, it is late.
  await waitForLateEdition(app.databaseUrl, table);
  await expect(cell(alice, rowId('1'), 'name')).toHaveText('Net 30');
  await alice.getByRole('button', { name: 'Finish editing' }).click();
  await expect(cell(alice, rowId('1'), 'name')).toHaveText('Net 60', {
    timeout: APPLIED_WITHIN_MS,
  });
  await expect(cell(alice, rowId('2'), 'name')).toHaveText('Cash on delivery');
  expect(await samePage(alice)).toBe(true);

  await alice.goto('/requests/mine');
  const mine = alice.getByTestId(`own-request-${id}`);
  await expect(mine.getByTestId('own-request-state')).toHaveText('Applied at its time');
  await expect(mine.getByTestId('late-by')).toHaveText(/^ · applied \d+ \S+ late$/);
  await alice.getByRole('button', { name: '日本語' }).click();
  await expect(mine.getByTestId('late-by')).toHaveText(/^ · \d+\s?秒 遅れて反映$/);
});

/** Until an edition has waited in line for `table` for over LATE_BY_SECONDS (database clock). */
async function waitForLateEdition(databaseUrl: string, table: string) {
  const database = new pg.Client({ connectionString: databaseUrl });
  await database.connect();
  try {
    await expect
      .poll(
        async () =>
          (
            await database.query(
              `SELECT 1 FROM tablelock.lock_waiter_place AS p
               JOIN tablelock.lock_waiter AS w ON w.id = p.waiter_id
               WHERE p.table_name = $1 AND p.editor LIKE 'edition:%'
                 AND w.since < now() - make_interval(secs => $2)`,
              [table, LATE_BY_SECONDS],
            )
          ).rowCount,
        { timeout: APPLIED_WITHIN_MS },
      )
      .toBe(1);
  } finally {
    await database.end();
  }
}
