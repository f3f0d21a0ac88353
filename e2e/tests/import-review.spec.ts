import type { Page } from '@playwright/test';
import pg from 'pg';
import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { graphql } from '../support/graphql';
import { startEditing } from '../support/tablePage';

// A table of this spec's own, with captions (COMMENT ON) in English and Japanese.
const TABLE = 'zz_import_review';
// In the cells of the file whose check is cancelled: its staged rows are found by it.
const MARKER = 'cancelled-import-marker';

const WORDS = {
  en: {
    language: 'English',
    import: 'Import CSV/XLSX',
    dryRun: 'Dry run',
    cancel: 'Cancel',
    header: 'id,Product name,Unit price',
    name: 'Product name',
    price: 'Unit price',
  },
  ja: {
    language: '日本語',
    import: 'CSV/XLSX インポート',
    dryRun: 'ドライラン',
    cancel: 'キャンセル',
    header: 'ID,商品名,単価',
    name: '商品名',
    price: '単価',
  },
} as const;

async function sql<T>(databaseUrl: string, text: string, values: unknown[] = []): Promise<T[]> {
  const database = new pg.Client({ connectionString: databaseUrl });
  await database.connect();
  try {
    return (await database.query(text, values)).rows as T[];
  } finally {
    await database.end();
  }
}

async function chooseFile(page: Page, words: (typeof WORDS)['en' | 'ja'], lines: string[]) {
  await page.getByRole('button', { name: words.import }).click();
  const dialog = page.getByRole('dialog');
  await dialog.locator('input[type=file]').setInputFiles({
    name: `${TABLE}.csv`,
    mimeType: 'text/csv',
    buffer: Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`),
  });
  await dialog.getByRole('button', { name: words.dryRun }).click();
  return dialog;
}

const keptDryRuns = async (databaseUrl: string) =>
  (
    await sql<{ id: string }>(
      databaseUrl,
      `SELECT id FROM tablelock.import_dry_run WHERE editor = 'alice' AND table_name = $1 ORDER BY id`,
      [TABLE],
    )
  ).map((row) => row.id);

test('import review: the mapping guessed from names and captions with sample values, key and label in the dry run, Cancel while checking, in en and ja', async ({
  app,
  signIn,
  openTableAs,
  snap,
}) => {
  await sql(
    app.databaseUrl,
    `CREATE TABLE IF NOT EXISTS master.${TABLE} (
       id integer PRIMARY KEY, name text NOT NULL, unit_price numeric(12, 2));
     COMMENT ON COLUMN master.${TABLE}.name IS '{"en": "Product name", "ja": "商品名"}';
     COMMENT ON COLUMN master.${TABLE}.unit_price IS '{"en": "Unit price", "ja": "単価"}';
     DELETE FROM master.${TABLE};
     INSERT INTO master.${TABLE} VALUES (1, 'Existing item', 1.00)`,
  );
  const admin = await signIn('admin');
  expect((await graphql(admin.request, 'mutation { syncTableRegistry { added } }')).errors).toBe(
    undefined,
  );
  const alice = await openTableAs('alice', TABLE);
  await startEditing(alice);

  for (const language of ['en', 'ja'] as const) {
    const words = WORDS[language];
    await alice.getByRole('button', { name: words.language }).click();
    const dialog = await chooseFile(alice, words, [
      words.header,
      `1,Renamed item ${language},2.50`,
      `2,New item ${language},3.00`,
    ]);

    // The header's names and captions guess the mapping; the file's first values are shown.
    const mapping = dialog.getByTestId('column-mapping');
    await expect(mapping).toBeVisible();
    await expect(mapping.getByLabel(words.name)).toHaveValue('name');
    await expect(mapping.getByLabel(words.price)).toHaveValue('unit_price');
    await expect(mapping.getByLabel(words.header.split(',')[0] as string)).toHaveValue('id');
    await expect(mapping).toContainText(`Renamed item ${language}`);
    await expect(mapping).toContainText('3.00');
    await expectAccessible(alice);
    await snap(alice, `import-mapping-guessed-${language}`);

    // The dry run's rows show their key and label.
    await dialog.getByRole('button', { name: words.dryRun }).click();
    const rows = dialog.getByTestId('import-rows');
    await expect(rows.getByRole('columnheader', { name: 'id', exact: true })).toBeVisible();
    await expect(rows.getByRole('columnheader', { name: 'name', exact: true })).toBeVisible();
    const update = rows.getByRole('row').filter({ hasText: `Renamed item ${language}` });
    await expect(update.getByRole('cell').nth(1)).toHaveText('1');
    await expect(update.getByRole('cell').nth(2)).toHaveText(`Renamed item ${language}`);
    const create = rows.getByRole('row').filter({ hasText: `New item ${language}` });
    await expect(create.getByRole('cell').nth(1)).toHaveText('2');
    await expectAccessible(alice);
    await snap(alice, `import-dry-run-key-label-${language}`);
    await dialog.getByRole('button', { name: words.cancel }).click();
    await expect(dialog).toHaveCount(0);
  }

  // Cancel while the rows are checked: held up by the test (the lock a dry run of alice's on
  // the table takes), the check is stopped in the database, and leaves nothing behind.
  const kept = await keptDryRuns(app.databaseUrl);
  const blocker = new pg.Client({ connectionString: app.databaseUrl });
  await blocker.connect();
  try {
    await blocker.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [
      `import:alice:${TABLE}`,
    ]);
    const { rows: own } = await blocker.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const heldUp = async () =>
      (
        await blocker.query<{ count: number }>(
          'SELECT count(*)::int AS count FROM pg_stat_activity WHERE $1 = ANY (pg_blocking_pids(pid))',
          [own[0]?.pid],
        )
      ).rows[0]?.count;
    const words = WORDS.ja;
    const dialog = await chooseFile(alice, words, ['id,name,unit_price', `3,${MARKER},4.00`]);
    await expect.poll(heldUp).toBe(1);
    await expect(dialog.getByRole('progressbar')).toBeVisible();
    await expectAccessible(alice);
    await snap(alice, 'import-checking-ja');
    await dialog.getByRole('button', { name: words.cancel }).click();
    await expect(dialog).toHaveCount(0);
    // Stopped, not just hidden: the wait ends while the lock is still held.
    await expect.poll(heldUp).toBe(0);
  } finally {
    await blocker.end();
  }
  await expect
    .poll(
      async () =>
        (
          await sql<{ count: number }>(
            app.databaseUrl,
            'SELECT count(*)::int AS count FROM tablelock.import_staging WHERE cells::text LIKE $1',
            [`%${MARKER}%`],
          )
        )[0]?.count,
    )
    .toBe(0);
  expect(await keptDryRuns(app.databaseUrl)).toEqual(kept);
  expect(await sql(app.databaseUrl, `SELECT id FROM master.${TABLE} ORDER BY id`)).toEqual([
    { id: 1 },
  ]);
});
