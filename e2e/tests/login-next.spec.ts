import type { Page } from '@playwright/test';
import { expectAccessible } from '../support/accessibility';
import { DEMO_PASSWORD, expect, test } from '../support/fixtures';

async function signInAt(page: Page, next: string) {
  await page.goto(`/login?next=${encodeURIComponent(next)}`);
  await expectAccessible(page);
  await page.getByLabel('User name').fill('carol');
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('current-user')).toContainText('carol');
}

test('signing in leads to the page asked for, and home when that page is on another site', async ({
  newBrowser,
}) => {
  const asked = await newBrowser();
  await signInAt(asked, '/tables/products');
  await expect(asked).toHaveURL(/\/tables\/products$/);

  // A browser reads /\evil.example as //evil.example: another site.
  const elsewhere = await newBrowser();
  await signInAt(elsewhere, '/\\evil.example');
  await expect(elsewhere).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/tables$/);
  await expect(elsewhere.getByTestId('table-row-products')).toBeVisible();
  await expectAccessible(elsewhere);
});
