import { type APIRequestContext, test as base, expect, type Page, request } from '@playwright/test';
import { startAppUnderTest } from './appUnderTest';
import type { DemoUser } from './demoUsers';
import { graphql } from './graphql';
import { type SavedSessions, type StorageState, savedSessions } from './savedSessions';
import type { RunningApp } from './startApp';
import { expectTableOpened, tablePath } from './tablePage';

export { DEMO_PASSWORD, type DemoUser } from './demoUsers';

const TABLES_PATH = '/tables';

interface Fixtures {
  /**
   * A browser of its own (own cookies, like another person's machine), not signed in yet, or
   * with the cookies of `storageState`.
   */
  newBrowser: (storageState?: StorageState) => Promise<Page>;
  /**
   * A browser of its own with `user`'s saved session (signed in through the API once per worker;
   * the login page has specs of its own: sign-in.spec.ts), on the tables page or straight on
   * `path`: one page load, not a detour through the tables page.
   */
  signIn: (user: DemoUser, path?: string) => Promise<Page>;
  /** signIn straight on `table`'s page, opened as openTable opens it. */
  openTableAs: (user: DemoUser, table: string) => Promise<Page>;
  /** A client of the API with `user`'s saved session, disposed after the test. */
  requestAs: (user: DemoUser) => Promise<APIRequestContext>;
  /** A screenshot in the test's output folder, attached to its result. */
  snap: (page: Page, name: string) => Promise<void>;
  /** Ends every lock after each test, so a failed test cannot leave tables locked for the next. */
  releaseAllLocks: undefined;
}

export interface WorkerFixtures {
  /** More settings for the app of each worker: an option of the project (playwright.config.ts). */
  appSettings: Record<string, string>;
  /** The app of this worker (support/appUnderTest.ts), on a database of its own. */
  app: RunningApp;
  /** The demo users' sessions of this worker (support/savedSessions.ts). */
  sessions: SavedSessions;
}

/**
 * Each worker has an app and database of its own, shared by the tests it runs one after
 * another: each one uses tables of its own and cleans up.
 */
export const test = base.extend<Fixtures, WorkerFixtures>({
  appSettings: [{}, { scope: 'worker', option: true }],

  app: [
    async ({ appSettings }, use) => {
      const app = await startAppUnderTest(appSettings);
      await use(app);
      await app.stop();
    },
    { scope: 'worker', timeout: 120_000 },
  ],

  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures name what they use by destructuring
  sessions: [async ({}, use) => use(savedSessions()), { scope: 'worker' }],

  baseURL: async ({ app }, use) => use(app.url),

  newBrowser: async ({ browser, baseURL }, use) => {
    const contexts: Awaited<ReturnType<typeof browser.newContext>>[] = [];
    await use(async (storageState) => {
      const context = await browser.newContext({
        baseURL,
        locale: 'en-US',
        viewport: { width: 1440, height: 900 },
        storageState,
      });
      contexts.push(context);
      return context.newPage();
    });
    for (const context of contexts) await context.close();
  },

  signIn: async ({ newBrowser, sessions, baseURL }, use) => {
    await use(async (user, path = TABLES_PATH) => {
      const page = await newBrowser(await sessions.stateOf(baseURL, user));
      await page.goto(path);
      await expect(page.getByTestId('current-user')).toContainText(user);
      if (path === TABLES_PATH) await expect(page.getByRole('table')).toBeVisible();
      return page;
    });
  },

  openTableAs: async ({ signIn }, use) => {
    await use(async (user, table) => {
      const page = await signIn(user, tablePath(table));
      await expectTableOpened(page, table);
      return page;
    });
  },

  requestAs: async ({ baseURL, sessions }, use) => {
    const contexts: APIRequestContext[] = [];
    await use(async (user) => {
      const context = await request.newContext({
        baseURL,
        storageState: await sessions.stateOf(baseURL, user),
      });
      contexts.push(context);
      return context;
    });
    for (const context of contexts) await context.dispose();
  },

  // biome-ignore lint/correctness/noEmptyPattern: as above
  snap: async ({}, use, testInfo) => {
    await use(async (page, name) => {
      const path = testInfo.outputPath(`${name}.png`);
      await page.screenshot({ path });
      await testInfo.attach(name, { path, contentType: 'image/png' });
    });
  },

  releaseAllLocks: [
    async ({ requestAs }, use) => {
      await use(undefined);
      const admin = await requestAs('admin');
      const answer = await graphql(admin, '{ tables(status: editing) { name } }');
      const editing = (answer.data?.tables ?? []) as { name: string }[];
      for (const { name } of editing) {
        await graphql(
          admin,
          'mutation($t: String!) { forceRelease(table: $t, reason: "e2e cleanup") { name } }',
          {
            t: name,
          },
        );
      }
    },
    { auto: true },
  ],
});

export { expect };
