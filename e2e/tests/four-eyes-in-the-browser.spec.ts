import type { Page } from '@playwright/test';
import pg from 'pg';
import { expectAccessible } from '../support/accessibility';
import { expect, test } from '../support/fixtures';
import { graphql } from '../support/graphql';
import { expectNoSidewaysScroll } from '../support/screenFit';
import { cell, editCell, expectLive, openTable, rowId, tableRow } from '../support/tablePage';

// A table of this file's own: approval on a demo table would turn the saves of the specs
// running beside it in the same database into change requests.
const TABLE = 'four_eyes_terms';

/** Creates TABLE once per database, with a row to change, and has the app register it. */
async function createTable(databaseUrl: string, admin: Page): Promise<void> {
  const database = new pg.Client({ connectionString: databaseUrl });
  await database.connect();
  try {
    // A retry finds the table guarded by its triggers: only a new one gets its row.
    const exists = await database.query('SELECT to_regclass($1) IS NOT NULL AS found', [
      `master.${TABLE}`,
    ]);
    if (!exists.rows[0]?.found) {
      await database.query(
        `CREATE TABLE master.${TABLE} (id integer PRIMARY KEY, name text NOT NULL);
         INSERT INTO master.${TABLE} VALUES (1, 'Net 30'), (2, 'Net 60');`,
      );
    }
  } finally {
    await database.end();
  }
  const synced = await graphql(admin.request, 'mutation { syncTableRegistry { added } }');
  expect(synced.errors).toBeUndefined();
}

/** The settings the security history recorded for the newest policy change of TABLE. */
async function lastPolicyChange(admin: Page): Promise<unknown> {
  const answer = await graphql(
    admin.request,
    `query($user: String!) {
      securityEvents(filter: { user: $user, actions: [table_policy_changed] }, limit: 1) {
        events { actor changes }
      }
    }`,
    { user: TABLE },
  );
  expect(answer.errors).toBeUndefined();
  const page = answer.data?.securityEvents as { events: unknown[] } | undefined;
  return page?.events[0];
}

test('an admin switches approval on in the browser; alice sees the badge before editing, submits, sees the request in My requests and bob’s decision as a notice on another page (en, ja)', async ({
  app,
  signIn,
  snap,
}, testInfo) => {
  const admin = await signIn('admin');
  await createTable(app.databaseUrl, admin);
  // A retry starts from a table without approval.
  await graphql(
    admin.request,
    `mutation { setTablePolicy(table: "${TABLE}", policy: { changesNeedApproval: false, approverRoles: [] }) { table } }`,
  );

  // The admin: approval on, editors approve; the history records only what was changed, as
  // for the command line.
  await admin.goto('/admin/table-settings');
  await admin.getByRole('searchbox', { name: 'Search tables' }).fill(TABLE);
  const policy = admin.getByTestId(`policy-${TABLE}`);
  await policy.getByRole('checkbox', { name: `${TABLE}: changes need approval` }).check();
  await policy
    .getByRole('group', { name: `${TABLE}: roles that may approve` })
    .getByRole('checkbox', { name: 'Editor' })
    .check();
  await expectAccessible(admin);
  await snap(admin, 'policy-approval');
  await policy.getByRole('button', { name: `Save the policy of ${TABLE}` }).click();
  await expect(admin.getByTestId('notices')).toContainText(`Policy of ${TABLE} saved.`);
  expect(await lastPolicyChange(admin)).toEqual({
    actor: 'admin',
    changes: { changesNeedApproval: true, approverRoles: ['editor'] },
  });
  // Saved as shown: nothing more to send.
  await policy.getByRole('button', { name: `Save the policy of ${TABLE}` }).click();
  await expect(admin.getByTestId('notices')).toContainText(
    `Nothing to save: the policy of ${TABLE} is as shown.`,
  );

  // Alice learns that the table needs approval before she edits: the tables page, the table's
  // heading, the start dialog.
  const alice = await signIn('alice', `/tables?q=${TABLE}`);
  await expect(tableRow(alice, TABLE).getByTestId('needs-approval-badge')).toHaveText(
    'Needs approval',
  );
  await expectAccessible(alice);
  await openTable(alice, TABLE);
  await expect(alice.getByRole('heading', { level: 1 })).toContainText('Needs approval');
  await alice.getByRole('button', { name: 'Start editing' }).click();
  const start = alice.getByRole('dialog');
  await expect(start.getByTestId('needs-approval-note')).toContainText(
    `Changes to ${TABLE} need approval`,
  );
  await expectAccessible(alice);
  await snap(alice, 'start-dialog-needs-approval');
  await start.getByRole('button', { name: 'Start editing' }).click();
  await expect(alice.getByTestId('table-status')).toHaveText('Editing (you)');

  const newName = `Net 45 (try ${testInfo.retry})`;
  await editCell(cell(alice, rowId('1'), 'name'), newName);
  await alice.getByRole('button', { name: 'Submit for approval' }).click();
  const submit = alice.getByRole('dialog');
  await submit.getByLabel('Comment (needed to reject or send back)').fill('Longer terms agreed');
  await submit.getByRole('button', { name: 'Submit for approval' }).click();
  await expect(alice.getByTestId('own-request')).toContainText('Pending approval');

  // My requests: the request waits, with her comment.
  await alice.getByRole('link', { name: 'Approvals' }).click();
  await alice.getByRole('link', { name: 'My requests' }).click();
  // Newest first: a failed try's request was rejected by the release of its lock.
  const waiting = alice
    .getByTestId('own-waiting')
    .getByRole('listitem')
    .filter({ hasText: TABLE })
    .first();
  await expect(waiting).toContainText(TABLE);
  await expect(waiting.getByTestId('own-request-state')).toHaveText('Pending approval');
  await expect(waiting).toContainText('Longer terms agreed');
  const id = (await waiting.getByRole('link', { name: /^#\d+ / }).textContent())?.match(
    /^#(\d+)/,
  )?.[1];
  expect(id).toBeDefined();
  await expectAccessible(alice);
  await snap(alice, 'my-requests-waiting');

  // Alice is on another page when bob decides.
  await alice.getByRole('link', { name: 'Tables', exact: true }).click();
  await expect(alice.getByRole('heading', { level: 1 })).toBeVisible();
  await expectLive(alice);
  const bob = await signIn('bob', `/requests/${id}`);
  await expect(bob.getByTestId('request-diff')).toContainText(newName);
  await bob.getByLabel('Comment (needed to reject or send back)').fill('Matches the contract');
  await bob.getByRole('button', { name: 'Approve and apply' }).click();
  await expect(bob.getByTestId('request-state')).toHaveText('Approved and applied');
  await expect(bob.getByTestId('request-decision-comment')).toContainText('Matches the contract');
  await expectAccessible(bob);

  const notices = alice.getByTestId('notices');
  await expect(notices).toContainText(
    `bob approved your change request #${id} on ${TABLE}: it is applied. "Matches the contract"`,
  );
  await expectAccessible(alice);
  await snap(alice, 'decision-notice');

  // Decided, it moves to the history, with bob's comment.
  await notices.getByRole('link', { name: 'See My requests' }).click();
  await expect(alice.getByTestId('own-waiting').getByTestId(`own-request-${id}`)).toHaveCount(0);
  const decided = alice.getByTestId(`own-request-${id}`);
  await expect(decided.getByTestId('own-request-state')).toHaveText('Approved and applied');
  await expect(decided.getByTestId('own-request-decision-comment')).toContainText(
    'Matches the contract',
  );
  await expect(decided).toContainText('bob');
  await expectAccessible(alice);
  await snap(alice, 'my-requests-decided');

  await alice.getByRole('button', { name: '日本語' }).click();
  await expect(alice.getByRole('heading', { level: 1 })).toHaveText('自分の申請');
  await expect(decided.getByTestId('own-request-state')).toHaveText('承認・反映済み');
  await expect(decided.getByTestId('own-request-decision-comment')).toContainText('bob のコメント');
  await expectAccessible(alice);
  await snap(alice, 'my-requests-decided-ja');
  await alice.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(alice);
  await snap(alice, 'my-requests-390-ja');
  await alice.goto(`/tables?q=${TABLE}`);
  await expect(tableRow(alice, TABLE).getByTestId('needs-approval-badge')).toHaveText('要承認');
  await expectAccessible(alice);

  await admin.getByRole('button', { name: '日本語' }).click();
  await expect(
    policy.getByRole('checkbox', { name: `${TABLE}：変更には承認が必要` }),
  ).toBeChecked();
  await expectAccessible(admin);
  await snap(admin, 'policy-approval-ja');
});
