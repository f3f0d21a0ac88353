import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { SSO_PROVIDER_NAME } from '../support/singleSignOn';

test('a company account signs in through the OpenID provider with its mapped role, and out of both', async ({
  baseURL,
  newBrowser,
  signIn,
  snap,
}) => {
  const page = await newBrowser();
  await page.goto('/login');
  const singleSignOn = page.getByRole('link', { name: `Sign in with ${SSO_PROVIDER_NAME}` });
  await expect(singleSignOn).toBeVisible();
  // Password login stays on beside it (PASSWORD_LOGIN is not false here).
  await expect(page.getByLabel('User name')).toBeVisible();
  await expectAccessible(page);
  await snap(page, 'login-with-single-sign-on');

  await singleSignOn.click();
  // oidc-provider's own login page, on the provider's address.
  const providerLogin = page.locator('input[name="login"]');
  await expect(providerLogin).toBeVisible();
  expect(new URL(page.url()).origin).not.toBe(new URL(baseURL ?? '').origin);
  await providerLogin.fill('sso-erika');
  await page.locator('input[name="password"]').fill('her company password');
  await snap(page, 'provider-login-page');
  await page.getByRole('button', { name: 'Sign-in' }).click();

  // Back in the app, as the user the provider named, with the role her groups map to.
  await expect(page.getByTestId('current-user')).toContainText('erika');
  await expect(page.getByTestId('current-user')).toContainText('Editor');
  await expect(page.getByRole('table')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Edit' }).first()).toBeVisible();
  await expectAccessible(page);
  await snap(page, 'signed-in-through-provider');

  const admin = await signIn('admin', '/admin/users');
  const erika = admin.locator('[data-testid="user-row"][data-username="erika"]');
  await expect(erika).toContainText('Company account groups');
  await expect(erika).toContainText('tablelock-editors, staff');
  await expectAccessible(admin);
  await snap(admin, 'admin-users-role-source');

  // Signing out ends the app's session, then the provider's (it asks first).
  await page.getByRole('link', { name: 'Sign out' }).click();
  await page.getByRole('button', { name: 'Yes, sign me out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('link', { name: `Sign in with ${SSO_PROVIDER_NAME}` })).toBeVisible();
  await page.goto('/tables');
  await expect(page).toHaveURL(/\/login/);
  // The provider forgot her too: signing in again asks for her login.
  await page.getByRole('link', { name: `Sign in with ${SSO_PROVIDER_NAME}` }).click();
  await expect(page.locator('input[name="login"]')).toBeVisible();
});
