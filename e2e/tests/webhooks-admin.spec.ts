import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';

test('an admin adds a webhook endpoint, sees its secret once, its empty delivery log, and deletes it', async ({
  signIn,
  snap,
}) => {
  const receiver = http.createServer((_request, response) => response.writeHead(204).end());
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/e2e-hooks`;
  try {
    const admin = await signIn('admin', '/admin');
    await admin.getByRole('button', { name: 'Admin', exact: true }).click();
    await admin.getByRole('link', { name: 'Webhooks' }).click();
    await expect(admin).toHaveURL(/\/admin\/webhooks$/);
    const form = admin.getByRole('form', { name: 'Add endpoint' });
    // A loopback address not in WEBHOOK_ALLOWED_HOSTS is refused, in words.
    await form.getByLabel('URL').fill('http://localhost:9/hooks');
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(admin.getByText(/is a loopback address/)).toBeVisible();

    await form.getByLabel('URL').fill(url);
    const types = form.getByRole('group', { name: 'Event types' });
    await types.getByRole('checkbox', { name: 'Save', exact: true }).check();
    await types.getByRole('checkbox', { name: 'Import', exact: true }).check();
    await form.getByLabel('Tables (comma-separated)').fill('regions');
    await form.getByLabel('Send the changed rows too').check();
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    const secretField = admin.getByTestId('webhook-secret');
    await expect(secretField).toHaveValue(/^whsec_/);
    const secret = await secretField.inputValue();
    await expectAccessible(admin);
    await snap(admin, 'admin-webhook-secret-shown-once');
    await admin.getByRole('button', { name: 'Done, I have copied it' }).click();
    await expect(secretField).toHaveCount(0);

    await admin.reload();
    const row = admin.getByRole('row').filter({ hasText: url });
    await expect(row).toContainText('Save, Import');
    await expect(row).toContainText('regions (with rows)');
    await expect(row).toContainText('Active');
    expect(await admin.content()).not.toContain(secret.slice(6));
    await row.getByRole('button', { name: 'Deliveries' }).click();
    await expect(admin.getByRole('heading', { name: `Deliveries to ${url}` })).toBeVisible();
    await expect(admin.getByText('Nothing sent yet.')).toBeVisible();
    await expectAccessible(admin);

    await row.getByRole('button', { name: 'Delete' }).click();
    await expect(admin.getByText('Endpoint deleted.')).toBeVisible();
    await expect(admin.getByRole('row').filter({ hasText: url })).toHaveCount(0);
  } finally {
    receiver.close();
  }
});
