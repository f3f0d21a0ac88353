import { test as base, expect, type Page, request } from '@playwright/test';
import { expectAccessible } from './accessibility';
import { graphql } from './graphql';

export type DemoUser = 'alice' | 'bob' | 'carol' | 'admin';
export const DEMO_PASSWORD = 'tablelock-demo';

interface Fixtures {
  /** A browser of its own (own cookies, like another person's machine), not signed in yet. */
  newBrowser: () => Promise<Page>;
  /** A browser of its own, signed in as `user` through the login page, on the tables page. */
  signIn: (user: DemoUser) => Promise<Page>;
  /** A screenshot in the test's output folder, attached to its result. */
  snap: (page: Page, name: string) => Promise<void>;
  /** Ends every lock after each test, so a failed test cannot leave tables locked for the next. */
  releaseAllLocks: undefined;
}

/** Every test shares one app and database: each one uses tables of its own and cleans up. */
export const test = base.extend<Fixtures>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures name what they use by destructuring
  baseURL: async ({}, use) => use(process.env.TABLELOCK_E2E_URL),

  newBrowser: async ({ browser, baseURL }, use) => {
    const contexts: Awaited<ReturnType<typeof browser.newContext>>[] = [];
    await use(async () => {
      const context = await browser.newContext({
        baseURL,
        locale: 'en-US',
        viewport: { width: 1440, height: 900 },
      });
      contexts.push(context);
      return context.newPage();
    });
    for (const context of contexts) await context.close();
  },

  signIn: async ({ newBrowser }, use) => {
    await use(async (user) => {
      const page = await newBrowser();
      await page.goto('/login');
      await expectAccessible(page);
      await page.getByLabel('User name').fill(user);
      await page.getByLabel('Password').fill(DEMO_PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByTestId('current-user')).toContainText(user);
      await expect(page.getByRole('table')).toBeVisible();
      await expectAccessible(page);
      return page;
    });
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
    async ({ baseURL }, use) => {
      await use(undefined);
      const admin = await request.newContext({ baseURL });
      await graphql(
        admin,
        'mutation($u: String!, $p: String!) { login(username: $u, password: $p) { name } }',
        {
          u: 'admin',
          p: DEMO_PASSWORD,
        },
      );
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
      await admin.dispose();
    },
    { auto: true },
  ],
});

export { expect };
