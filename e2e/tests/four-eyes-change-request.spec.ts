import { expectAccessible } from '../support/accessibility';
import { setApproval } from '../support/approvalPolicy';
import { expect, test } from '../support/fixtures';
import { cell, editCell, expectLive, openTable, rowId, startEditing } from '../support/tablePage';

test('alice submits a change to suppliers; bob sees it waiting, approves it; both are in its history', async ({
  signIn,
  snap,
  requestAs,
}) => {
  const admin = await requestAs('admin');
  await setApproval(admin, 'suppliers', true);
  try {
    const alice = await signIn('alice');
    const bob = await signIn('bob');
    await expectLive(bob);
    await expect(bob.getByTestId('requests-count')).toHaveCount(0);

    await openTable(alice, 'suppliers');
    await startEditing(alice);
    await editCell(cell(alice, rowId('1'), 'name'), 'Sakura Approved');
    await alice.getByRole('button', { name: 'Submit for approval' }).click();
    const dialog = alice.getByRole('dialog');
    await dialog.getByLabel('Comment (needed to reject or send back)').fill('New trading name');
    await expectAccessible(alice);
    await dialog.getByRole('button', { name: 'Submit for approval' }).click();
    await expect(alice.getByTestId('own-request')).toContainText('Pending approval');
    await expect(cell(alice, rowId('1'), 'name')).not.toHaveText('Sakura Approved');
    await expectAccessible(alice);
    await snap(alice, 'submitted-for-approval');

    // Bob hears of it as it arrives, with a link to it; his header counts it; it opens as a diff.
    const bobNotices = bob.getByTestId('notices');
    await expect(bobNotices).toContainText('alice asks for approval of suppliers.');
    await expect(bob.getByTestId('requests-count')).toContainText('1');
    await expectAccessible(bob);
    await bobNotices.getByRole('link', { name: /^Open request #\d+$/ }).click();
    await expect(bob.getByRole('link', { name: /suppliers by alice/ })).toBeVisible();
    const diff = bob.getByTestId('request-diff');
    await expect(diff).toContainText('id=1');
    await expect(diff.getByTestId('value-diff')).toContainText('Sakura Approved');
    await expectAccessible(bob);
    await snap(bob, 'review-request');
    await bob.getByRole('button', { name: 'Approve and apply' }).click();
    await expect(bob.getByTestId('request-state')).toHaveText('Approved and applied');
    await expect(bob.getByTestId('requests-count')).toHaveCount(0);

    // Alice hears the outcome live.
    await expect(alice.getByTestId('own-request')).toContainText('Approved and applied');
    await expect(alice.getByTestId('own-request')).toContainText('bob');
    await expect(cell(alice, rowId('1'), 'name')).toHaveText('Sakura Approved');
    await alice.getByRole('button', { name: 'Changes', exact: true }).click();
    const latest = alice.getByRole('dialog').getByTestId('change-entry').first();
    await expect(latest).toContainText('alice');
    await expect(latest).toContainText('approved by bob');
    await expectAccessible(alice);
    await alice.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    // The author heard the request's steps (the outcome above), never the notice.
    await expect(alice.getByTestId('notices')).not.toContainText('asks for approval');

    await bob.getByRole('button', { name: '日本語' }).click();
    await expect(bob.getByTestId('request-state')).toHaveText('承認・反映済み');
    await expectAccessible(bob);
    await alice.getByRole('button', { name: '日本語' }).click();
    await expect(alice.getByTestId('own-request')).toContainText('承認・反映済み');
    await expectAccessible(alice);
    await snap(alice, 'approved-ja');
  } finally {
    await setApproval(admin, 'suppliers', false);
  }
});
