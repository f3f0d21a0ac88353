import { describe, expect, it } from 'vitest';
import type { TablePolicyInput } from './generated/graphql';
import {
  governedTableQuery,
  policySecurityEventsQuery,
  setTablePolicyMutation,
  tablePoliciesQuery,
} from './support/governanceOperations';
import { acquireByLegacyMutation } from './support/lockApi';
import {
  acquireTableLockAs,
  acquireTableLockMutation,
  acquireTableLocksMutation,
  refusal,
  renewTableLockMutation,
} from './support/lockOperations';
import { readRegistry } from './support/registry';
import { useSignedInApi } from './support/signedInApi';
import { execute, type TestClient } from './support/testApi';

const signedIn = useSignedInApi();

async function setPolicy(table: string, policy: TablePolicyInput) {
  const response = await execute(signedIn.admin, setTablePolicyMutation, { table, policy });
  if (response.errors) throw new Error(JSON.stringify(response.errors));
  return response.data?.setTablePolicy;
}

async function tableAs(client: TestClient, name: string) {
  const response = await execute(client, governedTableQuery, { name });
  if (response.errors || !response.data?.table) throw new Error(JSON.stringify(response));
  return response.data.table;
}

/** Sets alice's identity-provider groups and waits until the API has heard of the change. */
async function setGroupsOfAlice(groups: string[]) {
  const { prisma } = signedIn.database;
  const alice = await prisma.user.findUniqueOrThrow({ where: { username: 'alice' } });
  const heard = signedIn.api.credentialChangeOf({ kind: 'user', id: alice.id });
  await prisma.user.update({ where: { id: alice.id }, data: { groups } });
  await heard;
}

/** The lease the database gave `table`'s current acquisition, in seconds. */
async function leaseSecondsOf(table: string): Promise<number> {
  const [row] = await signedIn.database.prisma.$queryRaw<{ seconds: number }[]>`
    SELECT extract(epoch FROM lease_expires_at - acquired_at)::float8 AS seconds
    FROM tablelock.table_lock WHERE table_name = ${table}`;
  return Math.round(row?.seconds ?? Number.NaN);
}

describe('table policies', () => {
  it('a read-only table is refused to everyone, yet locked as an FK target', async () => {
    await setPolicy('currencies', { readOnly: true });

    const refused = await execute(signedIn.alice, acquireTableLockMutation, {
      table: 'currencies',
    });
    expect(refusal(refused).code).toBe('TABLE_READ_ONLY');
    expect(refused.errors?.[0]?.extensions).toMatchObject({ editBlock: 'readOnly' });
    const admin = await execute(signedIn.admin, acquireTableLockMutation, { table: 'currencies' });
    expect(refusal(admin).code).toBe('TABLE_READ_ONLY');
    expect((await acquireByLegacyMutation(signedIn.alice, 'currencies')).lock_result).toBe(false);
    expect(await tableAs(signedIn.bob, 'currencies')).toMatchObject({
      policy: { readOnly: true },
      editBlock: { kind: 'readOnly', blockers: [] },
    });

    const suppliers = await acquireTableLockAs(signedIn.alice, 'suppliers');
    expect(suppliers.lockedTables).toEqual(['currencies', 'regions']);
    expect((await readRegistry(signedIn.database.prisma)).get('currencies')).toMatchObject({
      status: 'locked',
      lockedBy: ['suppliers'],
    });
  });

  it('a table left out of locking is never locked as an FK target, and not edited', async () => {
    await setPolicy('regions', { takesPartInLocking: false });

    const suppliers = await acquireTableLockAs(signedIn.alice, 'suppliers');
    expect(suppliers.lockedTables).toEqual(['currencies']);
    const registry = await readRegistry(signedIn.database.prisma);
    expect(registry.get('regions')).toMatchObject({ status: 'normal', lockedBy: [] });
    // Others referencing it start editing side by side: nothing holds it for any of them.
    const warehouses = await acquireTableLockAs(signedIn.bob, 'warehouses');
    expect(warehouses.lockedTables).toEqual([]);

    const refused = await execute(signedIn.bob, acquireTableLockMutation, { table: 'regions' });
    expect(refusal(refused).code).toBe('TABLE_READ_ONLY');
  });

  it('only the roles or groups named may edit; admins always may', async () => {
    await setPolicy('regions', { editGroups: ['finance'] });

    const refused = await execute(signedIn.alice, acquireTableLockMutation, { table: 'regions' });
    expect(refusal(refused).code).toBe('FORBIDDEN');
    expect(refused.errors?.[0]?.extensions).toMatchObject({ editBlock: 'notAllowed' });
    expect((await tableAs(signedIn.alice, 'regions')).editBlock?.kind).toBe('notAllowed');
    // Waiting in line would never end it: refused at once, not after the wait.
    const waited = await execute(signedIn.alice, acquireTableLocksMutation, {
      tables: ['regions'],
      wait: 30,
    });
    expect(refusal(waited).code).toBe('FORBIDDEN');

    // Alice's groups come from the identity provider; the policy reads them on each request
    // once the change is announced (the API remembers her credentials until then).
    await setGroupsOfAlice(['sales', 'finance']);
    try {
      expect((await tableAs(signedIn.alice, 'regions')).editBlock).toBeNull();
      await acquireTableLockAs(signedIn.alice, 'regions');
    } finally {
      await setGroupsOfAlice([]);
    }

    await setPolicy('currencies', { editRoles: ['admin'] });
    const bob = await execute(signedIn.bob, acquireTableLockMutation, { table: 'currencies' });
    expect(refusal(bob).code).toBe('FORBIDDEN');
    expect((await acquireByLegacyMutation(signedIn.bob, 'currencies')).lock_result).toBe(false);
    await acquireTableLockAs(signedIn.admin, 'currencies');
  });

  it('a longer lease is cut to the maximum, on acquisition and renewal', async () => {
    await setPolicy('currencies', { maxLeaseSeconds: 20 });

    const grant = await acquireTableLockAs(signedIn.alice, 'currencies', { lease: 600 });
    expect(await leaseSecondsOf('currencies')).toBe(20);
    const renewed = await execute(signedIn.alice, renewTableLockMutation, {
      table: 'currencies',
      token: grant.token,
      lease: 900,
    });
    expect(renewed.errors).toBeUndefined();
    const [row] = await signedIn.database.prisma.$queryRaw<{ seconds: number }[]>`
      SELECT extract(epoch FROM lease_expires_at - now())::float8 AS seconds
      FROM tablelock.table_lock WHERE table_name = 'currencies'`;
    expect(row?.seconds).toBeLessThanOrEqual(20);

    const shorter = await acquireTableLockAs(signedIn.bob, 'regions', { lease: 30 });
    expect(shorter.leaseExpiresAt).not.toBeNull();
    expect(await leaseSecondsOf('regions')).toBe(30);
  });

  it('bad input changes nothing; only admins set or read policies', async () => {
    const bad = await execute(signedIn.admin, setTablePolicyMutation, {
      table: 'currencies',
      policy: { readOnly: true, maxLeaseSeconds: 5 },
    });
    expect(refusal(bad).code).toBe('BAD_USER_INPUT');
    const blankGroup = await execute(signedIn.admin, setTablePolicyMutation, {
      table: 'currencies',
      policy: { editGroups: [' '] },
    });
    expect(refusal(blankGroup).code).toBe('BAD_USER_INPUT');
    const unknown = await execute(signedIn.admin, setTablePolicyMutation, {
      table: 'nope',
      policy: { readOnly: true },
    });
    expect(refusal(unknown).code).toBe('TABLE_NOT_FOUND');
    expect(await signedIn.database.prisma.tablePolicy.count()).toBe(0);

    const byEditor = await execute(signedIn.alice, setTablePolicyMutation, {
      table: 'currencies',
      policy: { readOnly: true },
    });
    expect(refusal(byEditor).code).toBe('FORBIDDEN');
    expect(refusal(await execute(signedIn.alice, tablePoliciesQuery)).code).toBe('FORBIDDEN');
    expect(await signedIn.database.prisma.tablePolicy.count()).toBe(0);
  });

  it('each change is in the security history with the settings given', async () => {
    const before = await signedIn.database.prisma.securityEvent.count({
      where: { action: 'table_policy_changed' },
    });
    const policy = await setPolicy('categories', { editGroups: ['finance', 'audit'] });
    expect(policy).toMatchObject({
      table: 'categories',
      editGroups: ['audit', 'finance'],
      readOnly: false,
      updatedBy: 'admin',
    });
    const listed = await execute(signedIn.admin, tablePoliciesQuery);
    expect(listed.data?.tablePolicies.find((row) => row.table === 'categories')).toMatchObject({
      editGroups: ['audit', 'finance'],
    });
    const events = await execute(signedIn.admin, policySecurityEventsQuery);
    const changes = (events.data?.securityEvents.events ?? []).filter(
      (event) => event.action === 'table_policy_changed',
    );
    expect(changes).toHaveLength(before + 1);
    expect(changes[0]).toMatchObject({
      actor: 'admin',
      subject: 'categories',
      changes: { editGroups: ['audit', 'finance'] },
    });
  });

  it('four-eyes settings are stored, listed and audited; viewers never approve', async () => {
    const policy = await setPolicy('suppliers', {
      changesNeedApproval: true,
      approverRoles: ['editor'],
      approverGroups: [' procurement', 'audit'],
    });
    expect(policy).toMatchObject({
      changesNeedApproval: true,
      approverRoles: ['editor'],
      approverGroups: ['audit', 'procurement'],
      readOnly: false,
    });
    const listed = await execute(signedIn.admin, tablePoliciesQuery);
    expect(listed.data?.tablePolicies.find((row) => row.table === 'suppliers')).toMatchObject({
      changesNeedApproval: true,
      approverRoles: ['editor'],
      approverGroups: ['audit', 'procurement'],
    });
    const events = await execute(signedIn.admin, policySecurityEventsQuery);
    const [latest] = (events.data?.securityEvents.events ?? []).filter(
      (event) => event.action === 'table_policy_changed' && event.subject === 'suppliers',
    );
    expect(latest?.changes).toEqual({
      changesNeedApproval: true,
      approverRoles: ['editor'],
      approverGroups: ['audit', 'procurement'],
    });

    const viewer = await execute(signedIn.admin, setTablePolicyMutation, {
      table: 'suppliers',
      policy: { approverRoles: ['viewer'] },
    });
    expect(refusal(viewer).code).toBe('BAD_USER_INPUT');
    const blank = await execute(signedIn.admin, setTablePolicyMutation, {
      table: 'suppliers',
      policy: { approverGroups: [''] },
    });
    expect(refusal(blank).code).toBe('BAD_USER_INPUT');
    const byEditor = await execute(signedIn.alice, setTablePolicyMutation, {
      table: 'suppliers',
      policy: { changesNeedApproval: false },
    });
    expect(refusal(byEditor).code).toBe('FORBIDDEN');
    const stored = await signedIn.database.prisma.tablePolicy.findUniqueOrThrow({
      where: { tableName: 'suppliers' },
    });
    expect(stored).toMatchObject({ changesNeedApproval: true, approverRoles: ['editor'] });
  });
});
