import { request } from '@playwright/test';
import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { graphql } from '../support/graphql';

test('an admin creates, re-roles and disables a user, and creates an API key shown once, then revokes it', async ({
  baseURL,
  signIn,
  snap,
}) => {
  const admin = await signIn('admin', '/admin/users');
  const create = admin.getByRole('form', { name: 'Create user' });
  await create.getByLabel('User name').fill('e2e-newcomer');
  await create.getByLabel('First password').fill('newcomer-passphrase');
  await create.getByRole('combobox', { name: 'Role of the new user' }).selectOption('editor');
  await create.getByRole('button', { name: 'Create user' }).click();
  const row = admin.locator('[data-testid="user-row"][data-username="e2e-newcomer"]');
  await expect(row.getByRole('combobox', { name: 'Role of e2e-newcomer' })).toHaveValue('editor');
  await expectAccessible(admin);
  await snap(admin, 'admin-user-created');

  // The newcomer signs in with the password the admin gave.
  const newcomer = await request.newContext({ baseURL });
  const login = 'mutation($p: String!) { login(username: "e2e-newcomer", password: $p) { role } }';
  expect((await graphql(newcomer, login, { p: 'newcomer-passphrase' })).data).toEqual({
    login: { role: 'editor' },
  });

  await row.getByRole('combobox', { name: 'Role of e2e-newcomer' }).selectOption('viewer');
  await expect(admin.getByText('e2e-newcomer is now Viewer.')).toBeVisible();
  await row.getByRole('button', { name: 'Disable' }).click();
  await expect(row).toContainText('Disabled');
  expect(
    (await graphql(newcomer, login, { p: 'newcomer-passphrase' })).errors?.[0]?.extensions?.code,
  ).toBe('UNAUTHENTICATED');
  await newcomer.dispose();

  await admin.getByRole('button', { name: 'Admin', exact: true }).click();
  await admin.getByRole('link', { name: 'API keys' }).click();
  await expect(admin).toHaveURL(/\/admin\/api-keys$/);
  const keyForm = admin.getByRole('form', { name: 'Create API key' });
  await keyForm.getByLabel('Name').fill('e2e-browser-key');
  await keyForm.getByRole('button', { name: 'Create API key' }).click();
  const secretField = admin.getByTestId('api-key-secret');
  await expect(secretField).toHaveValue(/^tlk_/);
  const secret = await secretField.inputValue();
  await expectAccessible(admin);
  await snap(admin, 'admin-api-key-shown-once');

  // The key works for the other system ...
  const system = await request.newContext({
    baseURL,
    extraHTTPHeaders: { authorization: `Bearer ${secret}` },
  });
  expect((await graphql(system, '{ me { name role } }')).data).toEqual({
    me: { name: 'key:e2e-browser-key', role: 'editor' },
  });
  // ... and is never shown again: not once this is closed, not after a reload.
  await admin.getByRole('button', { name: 'Done, I have copied it' }).click();
  await expect(secretField).toHaveCount(0);
  await admin.reload();
  const keyRow = admin.locator('[data-testid="api-key-row"][data-name="e2e-browser-key"]');
  await expect(keyRow).toContainText('Active');
  expect(await admin.content()).not.toContain(secret);

  await keyRow.getByRole('button', { name: 'Revoke' }).click();
  await admin.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
  await expect(keyRow).toContainText('Revoked');
  expect((await graphql(system, '{ me { name } }')).errors?.[0]?.extensions?.code).toBe(
    'UNAUTHENTICATED',
  );
  await system.dispose();

  await admin.getByRole('button', { name: '日本語' }).click();
  await expect(keyRow).toContainText('失効');
  await expectAccessible(admin);
  await admin.getByRole('button', { name: '管理', exact: true }).click();
  await admin.getByRole('link', { name: 'ユーザー', exact: true }).click();
  await expect(admin.getByRole('form', { name: 'ユーザーを作成' })).toBeVisible();
  await expectAccessible(admin);
  await snap(admin, 'admin-users-ja');
});
