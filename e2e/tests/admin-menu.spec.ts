import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { expectNoSidewaysScroll } from '../support/screenFit';

const PAGES = {
  English: {
    menu: 'Admin',
    items: [
      ['Users', /\/admin\/users$/, 'Users'],
      ['API keys', /\/admin\/api-keys$/, 'API keys'],
      ['Locks', /\/admin$/, 'Locks'],
      ['Table settings', /\/admin\/table-settings$/, 'Table settings'],
      ['Webhooks', /\/admin\/webhooks$/, 'Webhooks'],
    ],
  },
  日本語: {
    menu: '管理',
    items: [
      ['ユーザー', /\/admin\/users$/, 'ユーザー'],
      ['API キー', /\/admin\/api-keys$/, 'API キー'],
      ['ロック', /\/admin$/, 'ロック'],
      ['テーブル設定', /\/admin\/table-settings$/, 'テーブル設定'],
      ['Webhook', /\/admin\/webhooks$/, 'Webhook'],
    ],
  },
} as const;

test('one Admin menu leads to Users, API keys, Locks, Table settings and Webhooks, in English and Japanese, on a phone too', async ({
  signIn,
  snap,
}) => {
  const admin = await signIn('admin');
  const nav = admin.getByRole('navigation', { name: 'Main' });
  // Nothing of the admin area sits in the header beside the menu.
  await expect(nav.getByRole('link')).toHaveText(['Tables', 'Approvals', 'Calendar']);
  await expect(admin.getByRole('link', { name: 'Locks (admin)' })).toHaveCount(0);

  for (const [width, language] of [
    [1400, 'English'],
    [1400, '日本語'],
    [390, '日本語'],
    [390, 'English'],
  ] as const) {
    await admin.setViewportSize({ width, height: 844 });
    await admin.getByRole('button', { name: language, exact: true }).click();
    const { menu, items } = PAGES[language];
    for (const [item, address, heading] of items) {
      const button = admin.getByRole('button', { name: menu, exact: true });
      await button.click();
      await expect(button).toHaveAttribute('aria-expanded', 'true');
      const list = admin.getByRole('list', { name: menu });
      await expect(list.getByRole('link')).toHaveText(items.map(([name]) => name));
      if (item === items[0][0]) {
        await expectAccessible(admin);
        await snap(admin, `admin-menu-open-${width}-${language}`);
      }
      await list.getByRole('link', { name: item, exact: true }).click();
      await expect(admin).toHaveURL(address);
      await expect(admin.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
      // The page's own place in the menu is marked, and the menu folds away.
      await expect(list).toHaveCount(0);
      await expect(button).toHaveAttribute('aria-expanded', 'false');
      await expect(button).toHaveClass(/active/);
    }
    await expectNoSidewaysScroll(admin);
    await expectAccessible(admin);
    await snap(admin, `admin-webhooks-${width}-${language}`);
  }

  // Escape folds the menu and gives the focus back to its button.
  const button = admin.getByRole('button', { name: 'Admin', exact: true });
  await button.click();
  await expect(admin.getByRole('list', { name: 'Admin' })).toBeVisible();
  await admin.keyboard.press('Escape');
  await expect(admin.getByRole('list', { name: 'Admin' })).toHaveCount(0);
  await expect(button).toBeFocused();
});

test('editors and viewers have no Admin menu', async ({ signIn }) => {
  for (const user of ['alice', 'carol'] as const) {
    const page = await signIn(user);
    await expect(page.getByRole('heading', { name: 'Master tables', level: 1 })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Admin', exact: true })).toHaveCount(0);
  }
});

test('webhook event types are checkboxes: the ones checked are the endpoint’s, none checked is all', async ({
  signIn,
  snap,
}) => {
  const admin = await signIn('admin', '/admin/webhooks');
  const form = admin.getByRole('form', { name: 'Add endpoint' });
  const types = form.getByRole('group', { name: 'Event types' });
  await expect(types.getByRole('checkbox')).toHaveCount(17);
  // Each in words, none by its name (`change.applied`, `force_release`).
  for (const label of await types
    .getByRole('checkbox')
    .evaluateAll((boxes) => boxes.map((box) => box.closest('label')?.textContent ?? ''))) {
    expect(label).not.toMatch(/[._]/);
  }
  await types.getByRole('checkbox', { name: 'Freeze', exact: true }).check();
  await types.getByRole('checkbox', { name: 'Thaw', exact: true }).check();
  await expectAccessible(admin);
  await snap(admin, 'admin-webhook-event-types');
  // The app under test allows 127.0.0.1 (WEBHOOK_ALLOWED_HOSTS); nothing is sent before an event.
  const url = `http://127.0.0.1:9/e2e-event-types-${Date.now()}`;
  await form.getByLabel('URL').fill(url);
  await form.getByRole('button', { name: 'Add endpoint' }).click();
  await admin.getByRole('button', { name: 'Done, I have copied it' }).click();
  const row = admin.getByRole('row').filter({ hasText: url });
  await expect(row).toContainText('Freeze, Thaw');
  await row.getByRole('button', { name: 'Delete' }).click();
  await expect(row).toHaveCount(0);

  await admin.getByRole('button', { name: '日本語' }).click();
  await expect(
    admin
      .getByRole('group', { name: 'イベントの種類' })
      .getByRole('checkbox', { name: '凍結', exact: true }),
  ).toBeVisible();
  await expectAccessible(admin);
});
