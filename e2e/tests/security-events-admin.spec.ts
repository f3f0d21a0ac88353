import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { graphql } from '../support/graphql';

test('a failed sign-in shows in the admin’s security events, and the admin filters them by user', async ({
  newBrowser,
  signIn,
  snap,
}) => {
  // Someone tries bob's account with a wrong password, in a browser of their own.
  const login = await newBrowser();
  await login.goto('/login');
  await login.getByLabel('User name').fill('bob');
  await login.getByLabel('Password').fill('not-bobs-password');
  await login.getByRole('button', { name: 'Sign in' }).click();
  await expect(login.getByRole('alert')).toHaveText('Wrong user name or password.');
  await expectAccessible(login);

  const admin = await signIn('admin');
  // Changes of users and keys, made through the API, to be told apart from the failed sign-in.
  for (const mutation of [
    'mutation { createUser(username: "e2e-auditor", password: "auditor-password", role: viewer) { username } }',
    'mutation { updateUser(username: "e2e-auditor", role: editor) { username } }',
    'mutation { createApiKey(name: "e2e-import", role: editor) { apiKey { name } } }',
    'mutation { revokeApiKey(name: "e2e-import") { name } }',
  ]) {
    expect((await graphql(admin.request, mutation)).errors).toBeUndefined();
  }

  await admin.getByRole('button', { name: 'Admin', exact: true }).click();
  await admin.getByRole('link', { name: 'Locks', exact: true }).click();
  await admin.getByRole('link', { name: 'Security events' }).click();
  await expect(admin).toHaveURL(/\/admin\/security$/);
  const rows = admin.getByTestId('security-event-row');
  await expect(rows.first()).toContainText('API key revoked');
  await expect(rows.first()).toContainText('key:e2e-import');
  await expect(rows.filter({ hasText: 'Role changed' }).first()).toContainText('Viewer → Editor');
  await expectAccessible(admin);
  await snap(admin, 'admin-security-events');

  await admin.getByRole('searchbox', { name: 'User' }).fill('bob');
  await expect(rows.filter({ hasNotText: 'bob' })).toHaveCount(0);
  const failed = rows.filter({ hasText: 'Sign-in failed' });
  await expect(failed).toHaveCount(1);
  await expect(failed).toContainText('Not signed in');
  await expect(failed).toContainText('Wrong password');
  await expect(failed).toContainText('127.0.0.1');

  await admin.getByRole('button', { name: 'Sign-in failed' }).click();
  await expect(rows).toHaveCount(1);
  await expect(admin).toHaveURL(/user=bob.*action=login_failed/);
  await expectAccessible(admin);
  await snap(admin, 'admin-security-events-failed-sign-ins-of-bob');

  // The lock history is the other tab, with its own filters (a table among them).
  await admin.getByRole('link', { name: 'Lock history' }).click();
  await expect(admin).toHaveURL(/\/admin$/);
  await expect(admin.getByTestId('lock-history')).toBeVisible();
  await expect(admin.getByRole('combobox', { name: 'Table' })).toBeVisible();
  await expect(admin.getByRole('searchbox', { name: 'User' })).toHaveValue('');
  await expectAccessible(admin);
  await snap(admin, 'admin-lock-history');
});
