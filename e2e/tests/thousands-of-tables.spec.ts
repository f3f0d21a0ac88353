import type { Page } from '@playwright/test';
import { manyMasterTablesSql, manyTableName } from '@tablelock/test-support/manyMasterTables';
import pg from 'pg';
import { expectAccessible } from '../support/accessibility';
import { signedInRequest } from '../support/demoUsers';
import { test as base, expect } from '../support/fixtures';
import { graphql } from '../support/graphql';
import { type RunningApp, startApp } from '../support/startApp';
import { expectLive, expectTableOpened, tablePath, tableRow } from '../support/tablePage';

interface PageGlobals {
  document: { querySelector(selector: string): unknown };
}

// Real schemas have thousands of master tables. This file runs an app of its own, with 10,000
// more tables than the demo data (two FKs each), so the other tests keep their short list.
const MANY = 10_000;

/** The app of this file: the demo data, MANY more tables, and the registry synced through the API. */
async function startAppWithManyTables(): Promise<RunningApp> {
  // The table list is what is tested: no write guard triggers on the 10,000 tables.
  const app = await startApp({ env: { WRITE_GUARD_DEFAULT: 'OFF' } });
  try {
    const client = new pg.Client({ connectionString: app.databaseUrl });
    await client.connect();
    try {
      for (const script of manyMasterTablesSql('master', MANY)) await client.query(script);
    } finally {
      await client.end();
    }
    const admin = await signedInRequest(app.url, 'admin');
    const synced = await graphql(admin, 'mutation { syncTableRegistry { added } }');
    await admin.dispose();
    const sync = synced.data?.syncTableRegistry as { added: string[] } | undefined;
    expect(sync?.added).toHaveLength(MANY);
    return app;
  } catch (error) {
    // Nobody else would stop it: the fixture never got the app.
    await app.stop();
    throw error;
  }
}

const test = base.extend<object, { manyTablesApp: RunningApp }>({
  manyTablesApp: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures name what they use by destructuring
    async ({}, use) => {
      const app = await startAppWithManyTables();
      await use(app);
      await app.stop();
    },
    { scope: 'worker', timeout: 300_000 },
  ],
  baseURL: async ({ manyTablesApp }, use) => use(manyTablesApp.url),
});

/** The GraphQL operations a page sends, by name, in order. */
function recordOperations(page: Page): string[] {
  const operations: string[] = [];
  page.on('request', (sent) => {
    if (!sent.url().endsWith('/graphql') || sent.method() !== 'POST') return;
    const query = String((sent.postDataJSON() as { query?: string } | null)?.query ?? '');
    operations.push(query.match(/^\s*(?:query|mutation)\s+(\w+)/)?.[1] ?? 'anonymous');
  });
  return operations;
}

test('the Tables page with thousands of tables', async ({ signIn, snap, manyTablesApp }) => {
  const bob = await signIn('bob');
  await expectLive(bob);

  // The first screen: navigation start → the first rows shown.
  await bob.goto('/tables');
  const shownAt = await bob.waitForFunction(
    // Runs in the page (compiled without the DOM's types; the app's CSP forbids a string).
    () =>
      (globalThis as unknown as PageGlobals).document.querySelector(
        '[data-testid^="table-row-"]',
      ) && performance.now(),
    undefined,
    { polling: 'raf' },
  );
  test.info().annotations.push({
    type: 'first screen',
    description: `${Number(await shownAt.jsonValue()).toFixed(0)} ms`,
  });
  const allCount = bob.getByRole('button', { name: /^All/ }).locator('.segment-count');
  const all = Number(await allCount.textContent());
  expect(all).toBeGreaterThan(MANY);
  await expect(bob.locator('tbody tr')).toHaveCount(100);
  await expect(bob.getByTestId('pager-range')).toContainText(
    `1–100 of ${all.toLocaleString('en-US')}`,
  );
  await expectAccessible(bob);
  await snap(bob, 'first-screen-of-thousands');

  // The search is the API's: any table is one query away.
  await bob.getByLabel('Filter by name').fill('MANY_0987');
  await expect(bob.locator('tbody tr')).toHaveCount(10);
  await expect(tableRow(bob, manyTableName(9876))).toBeVisible();
  await expect(allCount).toHaveText('10');

  // A lock taken by another user shows on the open page from the event alone: no list is read again.
  await bob.getByLabel('Filter by name').fill('many_0500');
  await expect(tableRow(bob, manyTableName(5000))).toBeVisible();
  await expect(bob.locator('tbody tr')).toHaveCount(10);
  await expect(bob.getByRole('button', { name: /^Editing/ }).locator('.segment-count')).toHaveText(
    '0',
  );
  const operations = recordOperations(bob);
  const alice = await signedInRequest(manyTablesApp.url, 'alice');
  const acquired = await graphql(
    alice,
    'mutation($t: String!) { acquireTableLock(table: $t) { token } }',
    { t: manyTableName(5005) },
  );
  expect(acquired.errors).toBeUndefined();
  await expect(tableRow(bob, manyTableName(5005))).toHaveAttribute('data-status', 'editing');
  await expect(tableRow(bob, manyTableName(5005)).getByTestId('editor')).toHaveText('alice');
  for (const target of [manyTableName(5003), manyTableName(5004)]) {
    await expect(tableRow(bob, target)).toHaveAttribute('data-status', 'locked');
  }
  await expect(bob.getByRole('button', { name: /^Editing/ }).locator('.segment-count')).toHaveText(
    '1',
  );
  await expect(bob.getByRole('button', { name: /^Locked/ }).locator('.segment-count')).toHaveText(
    '2',
  );
  // Why bob cannot edit them is the API's to say, per caller: read again for those rows only.
  await expect(tableRow(bob, manyTableName(5005)).getByTestId('edit-block-reason')).toHaveText(
    'Being edited by alice',
  );
  await expect(tableRow(bob, manyTableName(5006)).getByTestId('edit-block-reason')).toHaveText(
    `${manyTableName(5005)}, which it references, is being edited by alice`,
  );
  expect(operations.filter((name) => name === 'Tables' || name === 'TablePage')).toEqual([]);
  expect(operations.every((name) => name === 'TablesNamed')).toBe(true);
  await expectAccessible(bob);
  await snap(bob, 'lock-taken-by-alice-patched-in');

  // The status filter shows the counted tables.
  await bob.getByRole('button', { name: /^Locked/ }).click();
  await expect(bob.locator('tbody tr')).toHaveCount(2);
  await expect(tableRow(bob, manyTableName(5003))).toBeVisible();
  await expectAccessible(bob);
  await alice.dispose();
});

test('a table page reads its table and the tables it references by name, never every table', async ({
  signIn,
  manyTablesApp,
}) => {
  const bob = await signIn('bob');
  await expectLive(bob);
  const operations = recordOperations(bob);
  await bob.goto(tablePath('products'));
  await expectTableOpened(bob, 'products');
  const shownAt = await bob.evaluate(() => performance.now());
  test.info().annotations.push({
    type: 'products page, navigation start → rows shown (at most)',
    description: `${shownAt.toFixed(0)} ms`,
  });

  // A lock taken on a table products references shows on the open page from the event.
  const alice = await signedInRequest(manyTablesApp.url, 'alice');
  const acquired = await graphql(
    alice,
    'mutation { acquireTableLock(table: "suppliers") { token } }',
  );
  expect(acquired.errors).toBeUndefined();
  await expect(bob.locator('.block-reason')).toHaveText(
    'suppliers, which it references, is being edited by alice',
  );
  const grant = acquired.data?.acquireTableLock as { token: string } | undefined;
  const released = await graphql(
    alice,
    'mutation($t: String!) { releaseTableLock(table: "suppliers", token: $t) { name } }',
    { t: grant?.token },
  );
  expect(released.errors).toBeUndefined();
  await expect(bob.locator('.block-reason')).toHaveCount(0);

  // Starting to edit names the tables it will lock, with their states.
  await bob.getByRole('button', { name: 'Start editing' }).click();
  const toLock = bob.getByRole('dialog').getByTestId('tables-to-lock');
  for (const table of ['categories', 'currencies', 'suppliers']) {
    await expect(toLock).toContainText(table);
  }
  expect(operations).not.toContain('Tables');
  expect(operations).toContain('TablesNamed');
  await alice.dispose();
});
