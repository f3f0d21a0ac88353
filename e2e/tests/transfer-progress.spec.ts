import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { startEditing } from '../support/tablePage';

// Products of their own, away from the rows other tests look at.
const FIRST = 90_001;
const LAST = 98_000;
const RENAMED = 97_500;

/** Rows FIRST..LAST as the export writes them, with RENAMED's name set to `name`. */
async function fileRenaming(page: Page, name: string): Promise<Buffer> {
  const filter = JSON.stringify([
    { column: 'id', operator: 'greaterThanOrEqual', value: String(FIRST) },
    { column: 'id', operator: 'lessThanOrEqual', value: String(LAST) },
  ]);
  const response = await page.request.get(
    `/export/products.csv?filter=${encodeURIComponent(filter)}`,
  );
  const text = (await response.text()).replace(
    new RegExp(`^(${RENAMED}),([^,]*),([^,\\r]*)`, 'm'),
    `$1,$2,${name}`,
  );
  return Buffer.from(text);
}

/**
 * The browser's network as slow as a poor line (Chrome's own throttling, through the DevTools
 * protocol): each phase lasts seconds, so the progress shown is there to be seen. One DevTools
 * session for the whole test, each phase setting its conditions on it: Chromium keeps applying
 * the first session's conditions and ignores those a second session sets.
 */
async function networkOf(page: Page) {
  const devtools = await page.context().newCDPSession(page);
  await devtools.send('Network.enable');
  return {
    async slow(bytesPerSecond: { up?: number; down?: number }, latencyMs = 0) {
      await devtools.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: latencyMs,
        uploadThroughput: bytesPerSecond.up ?? -1,
        downloadThroughput: bytesPerSecond.down ?? -1,
      });
    },
    /**
     * Holds the answer of the next request to `urlPattern` (a DevTools glob) once it has
     * arrived, sent and answered over the slowed network as any other, until the test lets it
     * go: the phase that waits for it lasts until the test has seen it, however long the steps
     * before took.
     */
    async holdAnswer(urlPattern: string): Promise<() => Promise<void>> {
      const arrived = new Promise<string>((resolve) =>
        devtools.once('Fetch.requestPaused', (paused) => resolve(paused.requestId)),
      );
      await devtools.send('Fetch.enable', { patterns: [{ urlPattern, requestStage: 'Response' }] });
      return async () => {
        await devtools.send('Fetch.continueRequest', { requestId: await arrived });
        await devtools.send('Fetch.disable');
      };
    },
  };
}

/** Holds the apply mutation until the test lets it go. */
async function holdApply(page: Page): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/graphql', async (route) => {
    if (route.request().postData()?.includes('ApplyImportDryRun')) await released;
    await route.continue();
  });
  return release;
}

interface Words {
  importButton: string;
  fileLabel: RegExp;
  dryRun: string;
  uploading: string;
  checking: string;
  apply: string;
  writing: string;
  applied: string;
  nameFilter: string;
  exportCsv: string;
  downloading: string;
}

const ENGLISH: Words = {
  importButton: 'Import CSV/XLSX',
  fileLabel: /^File/,
  dryRun: 'Dry run',
  uploading: 'Uploading progress.csv',
  checking: 'Checking rows…',
  apply: 'Apply 1 change',
  writing: 'Writing rows…',
  applied: 'Imported: 0 created, 1 updated.',
  nameFilter: 'name Filter Input',
  exportCsv: 'Export CSV',
  downloading: 'Downloading products.csv',
};

const JAPANESE: Words = {
  importButton: 'CSV/XLSX インポート',
  fileLabel: /^ファイル/,
  dryRun: 'ドライラン',
  uploading: 'progress.csv をアップロード中',
  checking: '行を確認中…',
  apply: '1 件の変更を適用',
  writing: '行を書き込み中…',
  applied: 'インポートしました：作成 0 行、更新 1 行。',
  nameFilter: '商品名 フィルター入力',
  exportCsv: 'CSV エクスポート',
  downloading: 'products.csv をダウンロード中',
};

for (const [language, words] of [
  ['en', ENGLISH],
  ['ja', JAPANESE],
] as const) {
  test(`a slow upload, dry run, apply and export show their progress (${language})`, async ({
    openTableAs,
    snap,
  }) => {
    const alice = await openTableAs('alice', 'products');
    await startEditing(alice);
    if (language === 'ja') {
      await alice.getByRole('button', { name: '日本語' }).click();
      // The grid builds its columns anew with their Japanese captions (see startEditing).
      await expect(alice.getByRole('columnheader', { name: '変更', exact: true })).toBeVisible();
    }
    // The export at the end: 10,000 rows.
    await alice.getByLabel(words.nameFilter, { exact: true }).fill('green tea');
    await expect(alice.getByRole('link', { name: words.exportCsv })).toHaveAttribute(
      'href',
      /green\+tea/,
    );
    const file = await fileRenaming(alice, `Progress import ${language}`);
    const network = await networkOf(alice);

    await alice.getByRole('button', { name: words.importButton }).click();
    const dialog = alice.getByRole('dialog');
    await dialog
      .getByLabel(words.fileLabel)
      .setInputFiles({ name: 'progress.csv', mimeType: 'text/csv', buffer: file });
    // About 4 s to send the file; the answer starts 2 s after the server has sent it, and is
    // held until the checking phase has been seen.
    await network.slow({ up: file.length / 4 }, 2000);
    const releaseDryRun = await network.holdAnswer('*/import/products?*dryRun=1*');
    await dialog.getByRole('button', { name: words.dryRun }).click();

    const uploading = dialog.getByRole('progressbar', { name: words.uploading });
    await expect(uploading).toBeVisible();
    await expect(uploading).toHaveAttribute('aria-valuenow', /^\d+$/);
    await expect(uploading).toHaveAttribute('aria-valuetext', /\d+%/);
    await expectAccessible(alice);
    await snap(alice, `progress-upload-${language}`);
    const checking = dialog.getByRole('progressbar', { name: words.checking });
    await expect(checking).toBeVisible();
    await expect(checking).not.toHaveAttribute('aria-valuenow');
    await snap(alice, `progress-checking-${language}`);
    await releaseDryRun();
    await expect(dialog.getByTestId('import-counts')).toContainText('7,999');
    await expect(dialog.getByRole('progressbar')).toHaveCount(0);

    const release = await holdApply(alice);
    await dialog.getByRole('button', { name: words.apply }).click();
    await expect(dialog.getByRole('progressbar', { name: words.writing })).toBeVisible();
    await expectAccessible(alice);
    await snap(alice, `progress-apply-${language}`);
    release();
    await expect(alice.getByText(words.applied)).toBeVisible();

    // The 10,000 rows (0.9 MB) trickle in at 10 kB/s, without the upload's latency, until the
    // test has seen their progress; then they come at full speed.
    await network.slow({ down: 10_000 });
    const [download] = await Promise.all([
      alice.waitForEvent('download'),
      (async () => {
        await alice.getByRole('link', { name: words.exportCsv }).click();
        const downloading = alice.getByRole('progressbar', { name: words.downloading });
        await expect(downloading).toBeVisible();
        // Some bytes have arrived (no total: the export is streamed).
        await expect(downloading).toHaveAttribute('aria-valuetext', /[1-9]/);
        await expect(downloading).not.toHaveAttribute('aria-valuenow');
        await snap(alice, `progress-download-${language}`);
        await network.slow({});
      })(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^products_\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = (await readFile(await download.path(), 'utf8')).trimEnd().split('\r\n');
    expect(lines).toHaveLength(10_001);
  });
}
