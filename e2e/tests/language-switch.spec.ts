import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { cell, expectLive, openTable, rowId } from '../support/tablePage';

test('the app switches to Japanese, with dates and numbers in Japanese style', async ({
  signIn,
  snap,
}) => {
  const carol = await signIn('carol');
  await carol.getByRole('button', { name: '日本語' }).click();
  await expect(carol.getByRole('heading', { name: 'マスタテーブル' })).toBeVisible();
  await expect(carol.getByTestId('current-user')).toContainText('閲覧者');
  await expect(carol.locator('html')).toHaveAttribute('lang', 'ja');
  await expectAccessible(carol);

  await openTable(carol, 'customers');
  await expect(cell(carol, rowId('1'), 'registered_on')).toHaveText('2005/04/18');
  await expect(cell(carol, rowId('1'), 'is_vip')).toHaveText('いいえ');
  await expect(carol.getByTestId('row-count')).toHaveText(/^[\d,]+ 行$/);
  await expectAccessible(carol);
  await snap(carol, 'customers-in-japanese');

  // The choice is remembered over a reload, and can be switched back.
  await carol.reload();
  await expect(carol.getByTestId('lock-summary')).toHaveText(
    'このテーブルを編集中のユーザーはいません。',
  );
  await carol.getByRole('button', { name: 'English' }).click();
  await expect(cell(carol, rowId('1'), 'registered_on')).toHaveText('Apr 18, 2005');
});

test('a notice on screen follows a language switch', async ({ openTableAs, snap }) => {
  const alice = await openTableAs('alice', 'regions');
  // The live connection up first: its coming up ends every "could not be reached" notice (the
  // server is back), and under load it came up after the failure below, taking its notice.
  await expectLive(alice);
  // The start of editing cannot reach the server: an error notice, which stays until dismissed.
  await alice.route('**/graphql', async (route) => {
    if (route.request().postData()?.includes('AcquireTableLock')) await route.abort();
    else await route.continue();
  });
  await alice.getByRole('button', { name: 'Start editing' }).click();
  await alice.getByRole('dialog').getByRole('button', { name: 'Start editing' }).click();
  const notices = alice.getByTestId('notices');
  await expect(notices).toHaveText(/^The server could not be reached\./);

  await alice.getByRole('button', { name: '日本語' }).click();
  await expect(notices).toHaveText(/^サーバーに接続できません。/);
  await expect(alice.getByRole('button', { name: '閉じる' })).toBeVisible();
  await expectAccessible(alice);
  await snap(alice, 'notice-in-japanese');
  await alice.getByRole('button', { name: 'English' }).click();
  await expect(notices).toHaveText(/^The server could not be reached\./);
});
