import { expectAccessible } from '../support/accessibility';
import { DEMO_PASSWORD, type DemoUser, expect, test } from '../support/fixtures';

// The other specs sign in through the API (the signIn fixture); this one through the login
// page, as each demo user, with the page and where it leads checked for accessibility.
for (const user of ['alice', 'bob', 'carol', 'admin'] satisfies DemoUser[]) {
  test(`${user} signs in through the login page and lands on the tables page`, async ({
    newBrowser,
  }) => {
    const page = await newBrowser();
    await page.goto('/login');
    await expectAccessible(page);
    await page.getByLabel('User name').fill(user);
    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByTestId('current-user')).toContainText(user);
    await expect(page.getByRole('table')).toBeVisible();
    await expectAccessible(page);
  });
}
