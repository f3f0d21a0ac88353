import type { Page } from 'playwright-core';
import { type BrowserUser, createBrowserUser, launchChromium, signedInPage } from '../benchBrowser';
import { type LatencySummary, summarizeLatencies } from '../latency';

/** Issue 42's page timing: the table page of 100,000 products in a real browser, drafts on. */
export interface EditorPageResult {
  /** Navigation start → the first rows of products shown. */
  firstRowsMs: LatencySummary;
  /** How many rows each save changed. */
  saveRows: number;
  /** Save pressed → "Saved" shown, for changes restored from a draft. */
  saveMs: LatencySummary;
  /** Keeping the draft after one edit, with `saveRows` other changes pending (the app's measure). */
  draftWriteMs: LatencySummary;
  errors: number;
  firstError?: string;
}

const EDITOR: BrowserUser = {
  username: 'bench-page-editor',
  password: 'bench-page-editor-password',
  role: 'editor',
};

const TABLE = 'products';
const PAGE_SIZE = 500;
const DRAFT_WRITE_MEASURE = 'tablelock:draft-write';

interface StoredRow {
  key: { id: string };
  version: string;
  values: { id: string; name: string };
}

// Runs in the page (compiled without the DOM's types; the app's CSP forbids a string).
interface PageGlobals {
  document: { querySelector(selector: string): unknown };
  indexedDB: {
    open(name: string): {
      result: IdbDatabase;
      onupgradeneeded: (() => void) | null;
      onsuccess: (() => void) | null;
      onerror: (() => void) | null;
    };
  };
}
interface IdbDatabase {
  createObjectStore(name: string): void;
  transaction(
    store: string,
    mode: 'readwrite',
  ): {
    objectStore(name: string): { put(value: unknown, key: string): void };
    oncomplete: (() => void) | null;
    onerror: (() => void) | null;
  };
  close(): void;
}

async function graphql<T>(page: Page, query: string, variables: object = {}): Promise<T> {
  const response = await page.request.post('/graphql', {
    headers: { 'content-type': 'application/json' },
    data: { query, variables },
  });
  const answer = (await response.json()) as { data?: T; errors?: { message: string }[] };
  if (!answer.data) throw new Error(`GraphQL failed: ${JSON.stringify(answer.errors)}`);
  return answer.data;
}

/** The first `count` products in key order, with the versions a draft's changes name. */
async function readProducts(page: Page, count: number): Promise<StoredRow[]> {
  const rows: StoredRow[] = [];
  let after: string | null = null;
  while (rows.length < count) {
    const { rows: found }: { rows: { rows: StoredRow[]; endCursor: string | null } } =
      await graphql(
        page,
        `query($after: String) { rows(table: "${TABLE}", limit: ${PAGE_SIZE}, after: $after,
           sort: [{ column: "id", direction: asc }]) { rows { key version values } endCursor } }`,
        { after },
      );
    rows.push(...found.rows);
    after = found.endCursor;
    if (!after) break;
  }
  return rows.slice(0, count);
}

/**
 * Puts a draft of `rows` renamed into the page's IndexedDB, as the app keeps one (its
 * drafts/draftStore.ts and changes/DraftChanges.ts): the app restores it as the user's edits.
 */
async function writeDraft(page: Page, user: string, rows: StoredRow[], suffix: string) {
  const changes = {
    updates: rows.map((row) => ({
      id: row.key.id,
      key: row.key,
      version: row.version,
      original: { name: row.values.name },
      changed: { name: `${row.values.name.replace(/ \(bench .*\)$/, '')} (bench ${suffix})` },
    })),
    inserts: [],
    deletes: [],
  };
  const draft = { savedAt: new Date().toISOString(), changes };
  await page.evaluate(
    ({ key, value }) =>
      new Promise<void>((resolve, reject) => {
        const request = (globalThis as unknown as PageGlobals).indexedDB.open('tablelock-drafts');
        request.onupgradeneeded = () => request.result.createObjectStore('drafts');
        request.onerror = () => reject(new Error('IndexedDB refused the draft'));
        request.onsuccess = () => {
          const db = request.result;
          const transaction = db.transaction('drafts', 'readwrite');
          transaction.objectStore('drafts').put(value, key);
          transaction.oncomplete = () => {
            db.close();
            resolve();
          };
          transaction.onerror = () => reject(new Error('IndexedDB refused the draft'));
        };
      }),
    { key: JSON.stringify([user, TABLE]), value: draft },
  );
}

async function firstRowsShown(page: Page): Promise<number> {
  await page.goto(`/tables/${TABLE}`, { waitUntil: 'commit' });
  const shown = await page.waitForFunction(
    () =>
      (globalThis as unknown as PageGlobals).document.querySelector(
        '.ag-grid-scrolling-container [row-id]',
      ) && performance.now(),
    undefined,
    { polling: 'raf', timeout: 60_000 },
  );
  return Number(await shown.jsonValue());
}

async function startEditing(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Start editing' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Start editing' }).click();
  await page.getByTestId('table-status').getByText('Editing (you)').waitFor();
}

/** One edit over the restored changes; the ms the app measured keeping the draft after it. */
async function draftWriteAfterOneEdit(page: Page, value: string): Promise<number> {
  await page.evaluate(() => performance.clearMeasures('tablelock:draft-write'));
  const target = page.locator(".ag-grid-scrolling-container [row-id] [col-id='name']");
  await target.first().dblclick();
  const editor = page.locator('.cell-editor');
  await editor.fill(value);
  await editor.press('Enter');
  const measured = await page.waitForFunction(
    (name) => performance.getEntriesByName(name, 'measure').at(-1)?.duration ?? false,
    DRAFT_WRITE_MEASURE,
    { timeout: 30_000 },
  );
  return Number(await measured.jsonValue());
}

async function saveRestoredDraft(
  page: Page,
  rows: StoredRow[],
  round: number,
  draftWrites: number[],
): Promise<number> {
  await writeDraft(page, EDITOR.username, rows, String(round));
  await page.reload();
  await page.getByRole('button', { name: 'Restore', exact: true }).click();
  await page
    .getByTestId('change-summary')
    .getByText(`${rows.length.toLocaleString('en-US')} unsaved`)
    .waitFor();
  draftWrites.push(await draftWriteAfterOneEdit(page, `Draft timing ${round}`));
  const started = performance.now();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByText(/^Saved: /).waitFor({ timeout: 60_000 });
  return performance.now() - started;
}

/**
 * The table page as a user meets it: the first rows of 100,000 products, then `saveRows`
 * changes restored from a draft and saved in one go (with one more edit first, to time the
 * draft kept over them), `repetitions` times. The table is released at the end.
 */
export async function measureEditorPage(
  options: { databaseUrl: string; apiUrl: string },
  sizes: { saveRows: number; repetitions: number },
): Promise<EditorPageResult> {
  await createBrowserUser(options.databaseUrl, EDITOR);
  const firstRows: number[] = [];
  const saves: number[] = [];
  const draftWrites: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const browser = await launchChromium();
  try {
    const page = await signedInPage(browser, options.apiUrl, EDITOR);
    for (let round = 0; round < sizes.repetitions; round++) {
      firstRows.push(await firstRowsShown(page));
    }
    await startEditing(page);
    const rows = await readProducts(page, sizes.saveRows);
    for (let round = 0; round < sizes.repetitions; round++) {
      const fresh = round === 0 ? rows : await readProducts(page, sizes.saveRows);
      saves.push(await saveRestoredDraft(page, fresh, round, draftWrites));
    }
    await page.getByRole('button', { name: 'Finish editing' }).click();
  } catch (error) {
    errors++;
    firstError = String(error);
  } finally {
    await browser.close();
  }
  return {
    firstRowsMs: summarizeLatencies(firstRows),
    saveRows: sizes.saveRows,
    saveMs: summarizeLatencies(saves),
    draftWriteMs: summarizeLatencies(draftWrites),
    errors,
    ...(firstError ? { firstError } : {}),
  };
}
