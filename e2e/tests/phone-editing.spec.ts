import type { Page } from '@playwright/test';
import pg from 'pg';
import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { graphql } from '../support/graphql';
import { expectNoSidewaysScroll } from '../support/screenFit';
import { cell, rowId } from '../support/tablePage';

// A table of this spec's own: other specs edit the demo tables beside it.
const TABLE = 'zz_phone_items';

const WORDS = {
  en: {
    language: 'English',
    start: 'Start editing',
    editing: 'Editing (you)',
    actions: 'Editing tools',
    problemsActions: ['Check', 'Problems (0)', 'Editing tools ▾'],
    addRow: 'Add row',
    details: 'Row details',
    save: 'Save',
    discard: 'Discard',
    no: 'No',
    saved: 'Saved: 0 added, 1 changed, 0 deleted.',
    finish: 'Finish editing',
  },
  ja: {
    language: '日本語',
    start: '編集を開始',
    editing: '編集中（あなた）',
    actions: '編集ツール',
    problemsActions: ['チェック', '問題 (0)', '編集ツール ▾'],
    addRow: '行を追加',
    details: '行の詳細',
    save: '保存',
    discard: '破棄',
    no: 'いいえ',
    saved: '保存しました：追加 0 件、変更 1 件、削除 0 件。',
    finish: '編集を終了',
  },
} as const;

async function query<T>(databaseUrl: string, sql: string, values: unknown[] = []): Promise<T[]> {
  const database = new pg.Client({ connectionString: databaseUrl });
  await database.connect();
  try {
    return (await database.query(sql, values)).rows as T[];
  } finally {
    await database.end();
  }
}

/** Taps a row's cell, as a finger does: the row opens as a form. */
async function tapRow(page: Page, row: string, title: string) {
  await cell(page, row, 'name').click();
  const form = page.getByRole('dialog', { name: title });
  await expect(form).toBeVisible();
  return form;
}

test('Phone: edit a value and save at 390 px, in English and Japanese', async ({
  app,
  signIn,
  snap,
}) => {
  await query(
    app.databaseUrl,
    `CREATE TABLE IF NOT EXISTS master.${TABLE} (
       id integer PRIMARY KEY, name text NOT NULL,
       category_id integer REFERENCES master.categories (id),
       active boolean NOT NULL DEFAULT true, note text, weight_kg numeric(8, 3));
     DELETE FROM master.${TABLE};
     INSERT INTO master.${TABLE} VALUES (1, 'Phone item 1', 1, true, NULL, 1.5),
       (2, 'Phone item 2', 2, true, NULL, 2.5), (3, 'Phone item 3', 3, true, NULL, 3.5)`,
  );
  const admin = await signIn('admin');
  expect((await graphql(admin.request, 'mutation { syncTableRegistry { added } }')).errors).toBe(
    undefined,
  );
  const alice = await signIn('alice', `/tables/${TABLE}`);
  await alice.setViewportSize({ width: 390, height: 844 });

  for (const [language, id] of [
    ['en', '1'],
    ['ja', '2'],
  ] as const) {
    const words = WORDS[language];
    await alice.getByRole('button', { name: words.language }).click();
    await alice.getByRole('button', { name: words.start }).click();
    await alice.getByRole('dialog').getByRole('button', { name: words.start }).click();
    await expect(alice.getByTestId('table-status')).toHaveText(words.editing);
    // The dialog's button was over the grid: a column's tooltip would open under the pointer.
    await alice.getByTestId('table-title').hover();
    await expect(alice.locator('.ag-tooltip')).toHaveCount(0);

    // The row actions are one menu, on screen, beside the changes' Check and Problems; no
    // checkbox column; the status a thin bar, so that the data columns have the width.
    const toolbar = alice.getByRole('toolbar', { name: words.actions });
    const menu = toolbar.getByRole('button', { name: words.actions });
    await expect(menu).toBeInViewport({ ratio: 1 });
    await expect(toolbar.getByRole('button')).toHaveText(words.problemsActions);
    await expect(alice.locator('.ag-selection-checkbox')).toHaveCount(0);
    const status = await alice.locator('[role=columnheader][col-id="__status"]').boundingBox();
    expect(status?.width).toBeLessThanOrEqual(12);
    await expect(alice.getByRole('columnheader', { name: 'name' })).toBeInViewport();
    await expectNoSidewaysScroll(alice);
    await menu.click();
    await expect(toolbar.getByRole('button', { name: words.addRow })).toBeInViewport({ ratio: 1 });
    await expectAccessible(alice);
    await snap(alice, `phone-menu-${language}`);
    await menu.press('Escape');
    await expect(toolbar.getByRole('button', { name: words.addRow })).toBeHidden();

    // A tap opens the row as a form: value help for the reference, yes/no for the boolean.
    let form = await tapRow(alice, rowId(id), words.details);
    await expect(form).toBeInViewport({ ratio: 1 });
    await form.getByLabel('name').fill(`Phone item ${id} (${language})`);
    const category = form.getByRole('combobox', { name: 'category_id' });
    await category.fill('Stationery');
    await expect(form.getByRole('option').first()).toContainText('Stationery');
    await category.press('ArrowDown');
    await category.press('Enter');
    await expect(category).toHaveValue('4');
    await form.getByLabel('active').selectOption({ label: words.no });
    await expectNoSidewaysScroll(alice);
    await expectAccessible(alice);
    await snap(alice, `phone-row-details-${language}`);
    await form.getByRole('button', { name: words.save }).click();
    await expect(form).toHaveCount(0);
    await expect(cell(alice, rowId(id), 'name')).toHaveText(`Phone item ${id} (${language})`);
    await expect(
      alice.locator(`[row-id='${rowId(id)}'] [data-testid='row-status']`),
    ).toHaveAttribute('data-row-state', 'changed');
    await expectAccessible(alice);
    await snap(alice, `phone-changed-row-${language}`);

    // Discard leaves the row as it was.
    form = await tapRow(alice, rowId('3'), words.details);
    await form.getByLabel('name').fill('Never saved');
    await form.getByRole('button', { name: words.discard }).click();
    await expect(form).toHaveCount(0);
    await expect(cell(alice, rowId('3'), 'name')).toHaveText('Phone item 3');

    await alice.getByRole('button', { name: words.save, exact: true }).click();
    // The first round's notice, still on screen, says the same in the new language: the row's
    // mark going away is what tells this save's end.
    await expect(
      alice.locator(`[row-id='${rowId(id)}'] [data-testid='row-status']`),
    ).not.toHaveAttribute('data-row-state', 'changed');
    await expect(alice.getByText(words.saved).first()).toBeVisible();
    expect(
      await query(
        app.databaseUrl,
        `SELECT name, category_id, active FROM master.${TABLE} WHERE id = $1`,
        [Number(id)],
      ),
    ).toEqual([{ name: `Phone item ${id} (${language})`, category_id: 4, active: false }]);
    expect(
      (
        await query<{ name: string }>(
          app.databaseUrl,
          `SELECT name FROM master.${TABLE} WHERE id = 3`,
        )
      )[0]?.name,
    ).toBe('Phone item 3');
    await alice.getByRole('button', { name: words.finish }).click();
    await expect(alice.getByRole('button', { name: words.start })).toBeVisible();
  }
});
