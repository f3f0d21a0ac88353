import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { graphql } from '../support/graphql';

test('an admin sets the idle limit for every table and for one table; each change is in the security events', async ({
  signIn,
  snap,
}) => {
  const admin = await signIn('admin');
  await admin.getByRole('button', { name: 'Admin', exact: true }).click();
  await admin.getByRole('link', { name: 'Locks', exact: true }).click();
  const settings = admin.getByTestId('idle-limits');
  await expect(admin.getByRole('heading', { name: 'Idle limit' })).toBeVisible();
  await expect(settings.getByTestId('global-idle-limit-now')).toHaveText('Now: 15 minutes');
  await expect(settings).toContainText('Every table follows the limit above.');
  await expectAccessible(admin);

  try {
    await settings.getByRole('spinbutton', { name: 'Every table' }).fill('20');
    await settings.getByRole('button', { name: 'Save' }).click();
    await expect(admin.getByText('Idle limit saved.')).toBeVisible();
    await expect(settings.getByTestId('global-idle-limit-now')).toHaveText('Now: 20 minutes');

    await settings.getByRole('combobox', { name: 'Own limit for' }).selectOption('price_lists');
    await settings.getByRole('spinbutton', { name: 'Limit' }).fill('45');
    await settings.getByRole('button', { name: 'Set for this table' }).click();
    await expect(settings.getByTestId('idle-limit-price_lists')).toContainText('45 minutes');
    await expectAccessible(admin);
    await snap(admin, 'admin-idle-limits');

    // The tables show the limit they are held under.
    const limits = await graphql(
      admin.request,
      '{ priceLists: table(name: "price_lists") { idleLimitSeconds } regions: table(name: "regions") { idleLimitSeconds } }',
    );
    expect(limits.data).toEqual({
      priceLists: { idleLimitSeconds: 2700 },
      regions: { idleLimitSeconds: 1200 },
    });

    // Whoever starts editing is told the limit they will be held to.
    await admin.goto('/tables/price_lists');
    await admin.getByRole('button', { name: 'Start editing' }).click();
    await expect(admin.getByRole('dialog').getByTestId('idle-limit-note')).toHaveText(
      /^If you show no activity for 45 minutes, the lock is released/,
    );
    await expectAccessible(admin);
    await admin.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await admin.getByRole('button', { name: 'Admin', exact: true }).click();
    await admin.getByRole('link', { name: 'Locks', exact: true }).click();

    await settings
      .getByRole('button', { name: 'Follow the limit for every table (price_lists)' })
      .click();
    await expect(settings.getByTestId('idle-limit-price_lists')).toHaveCount(0);

    await admin.getByRole('link', { name: 'Security events' }).click();
    const changes = admin
      .getByTestId('security-event-row')
      .filter({ hasText: 'Idle limit changed' });
    await expect(changes.nth(0)).toContainText('table:price_lists');
    await expect(changes.nth(0)).toContainText('Idle limit: 45 minutes → as every table');
    await expect(changes.nth(1)).toContainText('Idle limit: as every table → 45 minutes');
    await expect(changes.nth(2)).toContainText('lock_settings');
    await expect(changes.nth(2)).toContainText('Idle limit: 15 minutes → 20 minutes');
    await expectAccessible(admin);
    await snap(admin, 'admin-idle-limit-changes');
  } finally {
    const answer = await graphql(
      admin.request,
      'mutation { setIdleLimit(seconds: 900) { idleLimitSeconds } }',
    );
    expect(answer.errors).toBeUndefined();
  }
});
