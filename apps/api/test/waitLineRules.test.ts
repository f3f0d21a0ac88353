import { describe, expect, it } from 'vitest';
import type { TablePolicyInput } from './generated/graphql';
import { freezeTablesMutation, setTablePolicyMutation } from './support/governanceOperations';
import { acquireByLegacyMutation } from './support/lockApi';
import { subscribeLockChanges } from './support/lockChanges';
import {
  acquireTableLockAs,
  acquireTableLockMutation,
  acquireTableLocksMutation,
  granted,
  refusal,
  releaseTableLockAs,
  renewTableLockMutation,
  takeOverTableLockMutation,
} from './support/lockOperations';
import { joinLine } from './support/queuePlaces';
import { readRegistry } from './support/registry';
import { useSignedInApi } from './support/signedInApi';
import { execute, startTestApi } from './support/testApi';

const signedIn = useSignedInApi();

async function setPolicy(table: string, policy: TablePolicyInput) {
  const response = await execute(signedIn.admin, setTablePolicyMutation, { table, policy });
  if (response.errors) throw new Error(JSON.stringify(response.errors));
}

const waitersInDatabase = () => signedIn.database.prisma.lockWaiter.findMany();

const watchChanges = () =>
  subscribeLockChanges({
    url: signedIn.api.url,
    headers: signedIn.admin.headers,
    prisma: signedIn.database.prisma,
  });

/** The first thing a `waitForTable` subscription answers: a place, or the error it ends with. */
const firstAnswer = (line: ReturnType<typeof joinLine>) =>
  line.waitFor(() => true).catch((error: unknown) => error as Error);

describe('a wait no turn can end is refused at once, and holds nobody up', () => {
  it('a read-only table: waitForTable is refused with TABLE_READ_ONLY; others edit what references it', async () => {
    const { alice, bob, admin, api } = signedIn;
    await setPolicy('regions', { readOnly: true });
    const line = joinLine(api.url, alice.headers, 'regions');
    try {
      const answer = await firstAnswer(line);
      const customers = await execute(bob, acquireTableLockMutation, { table: 'customers' });
      expect(customers.errors, JSON.stringify(customers.errors)).toBeUndefined();
      expect((await acquireByLegacyMutation(admin, 'warehouses')).lock_result).toBe(true);
      expect(answer).toBeInstanceOf(Error);
      expect(String(answer)).toMatch(/TABLE_READ_ONLY/);
      expect(await waitersInDatabase()).toEqual([]);
    } finally {
      await line.close();
    }
  });

  it('a waiter whose table became read-only while it waited no longer goes first', async () => {
    const { alice, bob, admin, api } = signedIn;
    // Bob's editing of warehouses locks regions (shared): alice waits for it.
    await acquireTableLockAs(bob, 'warehouses');
    const line = joinLine(api.url, alice.headers, 'regions');
    try {
      await line.waitFor((place) => place.state === 'waiting');
      await setPolicy('regions', { readOnly: true });
      expect(await waitersInDatabase()).toHaveLength(1);
      // Customers would lock regions beside warehouses: only alice's place was in the way.
      const customers = await execute(admin, acquireTableLockMutation, { table: 'customers' });
      expect(customers.errors, JSON.stringify(customers.errors)).toBeUndefined();
    } finally {
      await line.close();
    }
  });

  it('a waiter the policy of who may edit came to leave out no longer goes first', async () => {
    const { alice, bob, admin, api } = signedIn;
    await acquireTableLockAs(bob, 'warehouses');
    const line = joinLine(api.url, alice.headers, 'regions');
    try {
      await line.waitFor((place) => place.state === 'waiting');
      await setPolicy('regions', { editRoles: ['admin'] });
      expect(await waitersInDatabase()).toHaveLength(1);
      const customers = await execute(admin, acquireTableLockMutation, { table: 'customers' });
      expect(customers.errors, JSON.stringify(customers.errors)).toBeUndefined();
    } finally {
      await line.close();
    }
  });

  it('a frozen table in acquireTableLocks with wait: TABLE_FROZEN at once, saying frozen; others go on', async () => {
    const { alice, bob, admin } = signedIn;
    const frozen = await execute(admin, freezeTablesMutation, {
      tables: ['regions'],
      reason: 'monthly close',
      rule: 'waitForHolders',
    });
    expect(frozen.errors).toBeUndefined();
    const changes = await watchChanges();
    try {
      const waiting = execute(alice, acquireTableLocksMutation, {
        tables: ['regions', 'currencies'],
        wait: 5,
      });
      // In line (as before) or answered (refused at once): either way before bob asks.
      await Promise.race([
        waiting,
        changes.waitFor((change) => change.action === 'queued' && change.editor === 'alice'),
      ]);
      const customers = await execute(bob, acquireTableLockMutation, { table: 'customers' });
      expect(customers.errors, JSON.stringify(customers.errors)).toBeUndefined();
      const { code, message } = refusal(await waiting);
      expect(code).toBe('TABLE_FROZEN');
      expect(message).toContain('regions is frozen: monthly close');
      expect(message).not.toContain('being edited');
    } finally {
      await changes.close();
    }
  });

  it('a table one edits oneself: waiting for it is refused at once and keeps nothing from others', async () => {
    const { alice, bob } = signedIn;
    await acquireTableLockAs(alice, 'warehouses');
    const changes = await watchChanges();
    try {
      const waiting = execute(alice, acquireTableLocksMutation, {
        tables: ['customers', 'warehouses'],
        wait: 5,
      });
      await Promise.race([
        waiting,
        changes.waitFor((change) => change.action === 'queued' && change.editor === 'alice'),
      ]);
      const customers = await execute(bob, acquireTableLockMutation, { table: 'customers' });
      expect(customers.errors, JSON.stringify(customers.errors)).toBeUndefined();
      const { code, message } = refusal(await waiting);
      expect(code).toBe('LOCK_CONFLICT');
      expect(message).toContain('warehouses is being edited by alice');
      expect(message).toContain('yourself');
      expect(await waitersInDatabase()).toEqual([]);
    } finally {
      await changes.close();
    }
  });
});

describe('waitForTable applies the table policy', () => {
  it('an editor the policy leaves out is refused at once, gets no turn, and holds up nobody', async () => {
    const { alice, admin, api } = signedIn;
    await setPolicy('regions', { editGroups: ['finance'] });
    const line = joinLine(api.url, alice.headers, 'regions');
    try {
      const answer = await firstAnswer(line);
      const grant = await execute(admin, acquireTableLockMutation, { table: 'regions' });
      expect(grant.errors, JSON.stringify(grant.errors)).toBeUndefined();
      expect(answer).toBeInstanceOf(Error);
      expect(String(answer)).toMatch(/FORBIDDEN/);
      expect(await waitersInDatabase()).toEqual([]);
    } finally {
      await line.close();
    }
  });
});

describe('one place in line per person and table', () => {
  it('of waitForTable subscriptions opened at once, one gets a place; the others ALREADY_IN_LINE', async () => {
    const { alice, bob, api } = signedIn;
    await acquireTableLockAs(bob, 'products');
    const lines = Array.from({ length: 6 }, () => joinLine(api.url, alice.headers, 'products'));
    try {
      const answers = await Promise.all(lines.map(firstAnswer));
      const places = answers.filter((answer) => !(answer instanceof Error));
      expect(places).toHaveLength(1);
      for (const answer of answers.filter((answer) => answer instanceof Error)) {
        expect(String(answer)).toMatch(/ALREADY_IN_LINE/);
      }
      expect(await waitersInDatabase()).toHaveLength(1);

      const again = await execute(alice, acquireTableLockMutation, { table: 'products', wait: 5 });
      expect(refusal(again).code).toBe('ALREADY_IN_LINE');
      expect(await waitersInDatabase()).toHaveLength(1);
    } finally {
      await Promise.all(lines.map((line) => line.close()));
    }
  });
});

describe('waiters per person', () => {
  it('refuses a waiter beyond the limit with TOO_MANY_WAITERS, and admits one again when another left', async () => {
    const { bob, admin } = signedIn;
    const capped = await startTestApi(signedIn.database, { maxWaitersPerPrincipal: 2 });
    try {
      const alice = await capped.loginAs('alice');
      const held = new Map<string, string>();
      for (const table of ['products', 'customers', 'warehouses']) {
        held.set(table, (await acquireTableLockAs(bob, table)).token);
      }
      const changes = await watchChanges();
      const first = joinLine(capped.url, alice.headers, 'products');
      const second = execute(alice, acquireTableLockMutation, { table: 'customers', wait: 5 });
      try {
        await first.waitFor((place) => place.state === 'waiting');
        await changes.waitFor(
          (change) => change.action === 'queued' && change.table === 'customers',
        );
        const third = await execute(alice, acquireTableLockMutation, {
          table: 'warehouses',
          wait: 3,
        });
        expect(refusal(third).code).toBe('TOO_MANY_WAITERS');
        const fourth = joinLine(capped.url, alice.headers, 'warehouses');
        try {
          expect(String(await firstAnswer(fourth))).toMatch(/TOO_MANY_WAITERS/);
        } finally {
          await fourth.close();
        }
        // Another person has a limit of their own.
        const theirs = joinLine(capped.url, admin.headers, 'warehouses');
        try {
          expect(await theirs.waitFor(() => true)).toMatchObject({ state: 'waiting' });
        } finally {
          await theirs.close();
        }
        await first.close();
        const fifth = joinLine(capped.url, alice.headers, 'products');
        try {
          expect(await fifth.waitFor(() => true)).toMatchObject({ state: 'waiting' });
        } finally {
          await fifth.close();
        }
      } finally {
        await first.close();
        await changes.close();
        await releaseTableLockAs(bob, 'customers', held.get('customers') ?? '');
        await second;
      }
    } finally {
      await capped.stop();
    }
  });
});

describe('a holder the policy now leaves out', () => {
  it('keeps the lock until it ends, but can neither renew it nor take it over for a fresh token', async () => {
    const { alice } = signedIn;
    const held = await acquireTableLockAs(alice, 'regions', { lease: 60 });
    await setPolicy('regions', { editRoles: ['admin'] });

    const renewed = await execute(alice, renewTableLockMutation, {
      table: 'regions',
      token: held.token,
    });
    expect(refusal(renewed).code).toBe('FORBIDDEN');
    const taken = await execute(alice, takeOverTableLockMutation, {
      table: 'regions',
      reason: 'other tab',
    });
    expect(refusal(taken).code).toBe('FORBIDDEN');
    expect((await readRegistry(signedIn.database.prisma)).get('regions')).toMatchObject({
      status: 'editing',
      editor: 'alice',
    });
    const [row] = await signedIn.database.prisma.$queryRaw<{ token: string }[]>`
      SELECT fencing_token::text AS token FROM tablelock.table_lock WHERE table_name = 'regions'`;
    expect(row?.token).toBe(held.token);

    await setPolicy('regions', { editRoles: [], readOnly: true });
    const readOnly = await execute(alice, renewTableLockMutation, {
      table: 'regions',
      token: held.token,
    });
    expect(refusal(readOnly).code).toBe('TABLE_READ_ONLY');
    await releaseTableLockAs(alice, 'regions', held.token);
  });

  it('renews as before while the policy lets them edit', async () => {
    const { alice } = signedIn;
    const held = await acquireTableLockAs(alice, 'regions', { lease: 60 });
    await setPolicy('regions', { editRoles: ['editor'] });
    const renewed = await execute(alice, renewTableLockMutation, {
      table: 'regions',
      token: held.token,
    });
    expect(granted(renewed, 'renewTableLock', 'renewal').token).toBe(held.token);
  });
});
