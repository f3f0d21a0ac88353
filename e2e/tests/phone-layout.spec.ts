import pg from 'pg';
import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { graphql } from '../support/graphql';
import { brokenLabels, expectNoSidewaysScroll } from '../support/screenFit';
import { tableRow } from '../support/tablePage';

// More tables refer to this one than the table page shows unfolded; sorted last in the list.
const PARENT = 'zz_fold_parent';
const CHILDREN = Array.from({ length: 9 }, (_, i) => `zz_fold_child_${i}`);

const LABELS = '.app-nav a, .segmented button, .data-table thead th, .button, .status-badge';

test('at 390×844 in English and Japanese: nothing wider than the screen, Sign out and every control on screen, dialogs inside it, labels whole', async ({
  app,
  signIn,
  snap,
}) => {
  const database = new pg.Client({ connectionString: app.databaseUrl });
  await database.connect();
  await database.query(
    `CREATE TABLE IF NOT EXISTS master.${PARENT} (id integer PRIMARY KEY);
     ${CHILDREN.map((child) => `CREATE TABLE IF NOT EXISTS master.${child} (id integer PRIMARY KEY, parent_id integer REFERENCES master.${PARENT} (id));`).join('\n')}`,
  );
  await database.end();
  const admin = await signIn('admin');
  expect((await graphql(admin.request, 'mutation { syncTableRegistry { added } }')).errors).toBe(
    undefined,
  );
  await admin.setViewportSize({ width: 390, height: 844 });

  for (const [language, signOut, edit, start] of [
    ['English', 'Sign out', 'Edit', 'Start editing'],
    ['日本語', 'ログアウト', '編集', '編集を開始'],
  ] as const) {
    await admin.goto('/tables');
    await admin.getByRole('button', { name: language }).click();
    await expect(admin.getByRole('link', { name: signOut })).toBeInViewport({ ratio: 1 });
    for (const control of await admin.locator('header a, header button').all()) {
      await expect(control).toBeInViewport({ ratio: 1 });
    }
    await expect(tableRow(admin, 'customers')).toBeVisible();
    await expectNoSidewaysScroll(admin);
    expect(await brokenLabels(admin, LABELS)).toEqual([]);
    await expectAccessible(admin);
    await snap(admin, `tables-390-${language}`);

    // The list scrolls inside its card: a row's last button is reached by scrolling it.
    await tableRow(admin, 'suppliers').getByRole('button', { name: edit }).click();
    const dialog = admin.getByRole('dialog');
    await expect(dialog.getByRole('button', { name: start })).toBeInViewport({ ratio: 1 });
    await expect(dialog).toBeInViewport({ ratio: 1 });
    expect(await brokenLabels(admin, '.dialog .button')).toEqual([]);
    await expectAccessible(admin);
    await snap(admin, `start-editing-390-${language}`);
    await dialog.press('Escape');
    await expect(dialog).toHaveCount(0);

    // Nine tables that refer to it fold behind their count.
    await admin.goto(`/tables/${PARENT}`);
    const folded = admin.getByTestId('folded-table-links');
    await expect(folded.locator('summary')).toHaveText(
      language === 'English' ? '9 tables' : '9 テーブル',
    );
    await expect(folded.locator('a').first()).toBeHidden();
    await folded.locator('summary').click();
    await expect(folded.getByRole('link', { name: CHILDREN[8] })).toBeVisible();
    await expectNoSidewaysScroll(admin);
    await expectAccessible(admin);
    await snap(admin, `folded-references-390-${language}`);
  }

  // Table settings → Freeze: the tables are found by a search, not listed in full.
  await admin.goto('/admin/table-settings');
  const freeze = admin.getByRole('region', { name: '凍結' });
  await freeze.getByRole('searchbox', { name: 'テーブルを検索' }).fill('zz_fold_child');
  await expect(freeze.getByRole('checkbox')).toHaveCount(9);
  await freeze.getByRole('checkbox', { name: CHILDREN[3] }).check();
  await expect(freeze.getByRole('button', { name: `${CHILDREN[3]} を外す` })).toBeVisible();
  await expectNoSidewaysScroll(admin);
  await expectAccessible(admin);
  await snap(admin, 'freeze-picker-390-ja');
});
