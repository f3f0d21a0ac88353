import { describe, expect, it } from 'vitest';
import {
  freezeTablesMutation,
  governedTableQuery,
  policySecurityEventsQuery,
  setTakeOverRuleMutation,
  takeOverSettingsQuery,
} from './support/governanceOperations';
import {
  acquireTableLockAs,
  lockEvents,
  refusal,
  renewTableLockMutation,
  takeOverTableLockMutation,
} from './support/lockOperations';
import { useSignedInApi } from './support/signedInApi';
import { execute, type TestClient } from './support/testApi';

const signedIn = useSignedInApi();

async function setRule(rule: 'admins_only' | 'own_sessions' | 'idle_holder', idleMinutes?: number) {
  const response = await execute(signedIn.admin, setTakeOverRuleMutation, { rule, idleMinutes });
  if (response.errors) throw new Error(JSON.stringify(response.errors));
  return response.data?.setTakeOverRule;
}

const takeOver = (client: TestClient, table: string, reason = 'holder is away') =>
  execute(client, takeOverTableLockMutation, { table, reason });

async function canTakeOver(client: TestClient, name: string) {
  const response = await execute(client, governedTableQuery, { name });
  return response.data?.table?.canTakeOver;
}

/** The holder of `table` showed no activity for `minutes` (a database-clock fact, set as such). */
async function idleFor(table: string, minutes: number) {
  await signedIn.database.prisma.$executeRaw`
    UPDATE tablelock.table_lock
    SET last_active_at = now() - make_interval(mins => ${minutes})
    WHERE table_name = ${table}`;
}

describe('take-over rules', () => {
  it("by default today's rule: one's own lock from another session, nobody else's", async () => {
    expect((await execute(signedIn.bob, takeOverSettingsQuery)).data?.takeOverSettings).toEqual({
      rule: 'own_sessions',
      idleMinutes: 15,
    });
    await acquireTableLockAs(signedIn.alice, 'currencies');
    const bob = await takeOver(signedIn.bob, 'currencies');
    expect(refusal(bob).code).toBe('FORBIDDEN');
    expect(await canTakeOver(signedIn.bob, 'currencies')).toBe(false);
    const aliceElsewhere = await signedIn.api.loginAs('alice');
    expect(await canTakeOver(aliceElsewhere, 'currencies')).toBe(true);
    expect((await takeOver(aliceElsewhere, 'currencies')).errors).toBeUndefined();
  });

  it('admins only: not even the holder from another session; admins still may', async () => {
    await setRule('admins_only');
    await acquireTableLockAs(signedIn.alice, 'currencies');
    const aliceElsewhere = await signedIn.api.loginAs('alice');
    expect(await canTakeOver(aliceElsewhere, 'currencies')).toBe(false);
    expect(refusal(await takeOver(aliceElsewhere, 'currencies')).code).toBe('FORBIDDEN');
    expect(await canTakeOver(signedIn.admin, 'currencies')).toBe(true);
    expect((await takeOver(signedIn.admin, 'currencies')).errors).toBeUndefined();
  });

  it('idle holder: any editor once the holder has been idle long enough; the holder is told', async () => {
    await setRule('idle_holder', 10);
    const held = await acquireTableLockAs(signedIn.alice, 'regions');
    expect(refusal(await takeOver(signedIn.bob, 'regions')).code).toBe('FORBIDDEN');
    expect(await canTakeOver(signedIn.bob, 'regions')).toBe(false);

    await idleFor('regions', 9);
    expect(refusal(await takeOver(signedIn.bob, 'regions')).code).toBe('FORBIDDEN');
    await idleFor('regions', 11);
    expect(await canTakeOver(signedIn.bob, 'regions')).toBe(true);
    const blank = await takeOver(signedIn.bob, 'regions', '  ');
    expect(refusal(blank).code).toBe('BAD_USER_INPUT');
    const taken = await takeOver(signedIn.bob, 'regions', 'alice went home');
    expect(taken.data?.takeOverTableLock).toMatchObject({ editor: 'bob' });

    const lost = await execute(signedIn.alice, renewTableLockMutation, {
      table: 'regions',
      token: held.token,
    });
    expect(refusal(lost).code).toBe('LOCK_LOST');
    expect(refusal(lost).message).toContain('bob took over regions');
    const [event] = (await lockEvents(signedIn.admin, { table: 'regions', actions: ['take_over'] }))
      .events;
    expect(event).toMatchObject({ actor: 'bob', editor: 'bob', reason: 'alice went home' });
  });

  it('idle holder of a frozen table: nobody but admins takes it over', async () => {
    await setRule('idle_holder', 1);
    await acquireTableLockAs(signedIn.alice, 'regions');
    await execute(signedIn.admin, freezeTablesMutation, {
      tables: ['regions'],
      reason: 'close',
      rule: 'waitForHolders',
    });
    await idleFor('regions', 5);
    expect(await canTakeOver(signedIn.bob, 'regions')).toBe(false);
    expect(refusal(await takeOver(signedIn.bob, 'regions')).code).toBe('TABLE_FROZEN');
  });

  it('bad input and non-admins change nothing; each change is audited', async () => {
    expect(
      refusal(
        await execute(signedIn.admin, setTakeOverRuleMutation, {
          rule: 'idle_holder',
          idleMinutes: 0,
        }),
      ).code,
    ).toBe('BAD_USER_INPUT');
    expect(
      refusal(await execute(signedIn.alice, setTakeOverRuleMutation, { rule: 'idle_holder' })).code,
    ).toBe('FORBIDDEN');
    expect((await execute(signedIn.bob, takeOverSettingsQuery)).data?.takeOverSettings.rule).toBe(
      'own_sessions',
    );

    expect(await setRule('idle_holder', 30)).toEqual({
      rule: 'idle_holder',
      idleMinutes: 30,
      updatedBy: 'admin',
    });
    const events = await execute(signedIn.admin, policySecurityEventsQuery);
    const [latest] = (events.data?.securityEvents.events ?? []).filter(
      (event) => event.action === 'take_over_rule_changed',
    );
    expect(latest).toMatchObject({
      actor: 'admin',
      subject: 'take-over rule',
      changes: { rule: 'idle_holder', idleMinutes: 30 },
    });
  });
});
