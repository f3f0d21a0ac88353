import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { cell, openTable, rowId } from '../support/tablePage';

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
