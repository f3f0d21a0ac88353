import { thawEndedFreezes } from '@tablelock/lock';
import { describe, expect, it } from 'vitest';
import {
  freezeTablesMutation,
  governedTableQuery,
  thawTablesMutation,
} from './support/governanceOperations';
import { subscribeLockChanges } from './support/lockChanges';
import {
  acquireTableLockAs,
  acquireTableLockMutation,
  lockEvents,
  refusal,
  releaseTableLockAs,
  renewTableLockMutation,
} from './support/lockOperations';
import { readRegistry } from './support/registry';
import { useSignedInApi } from './support/signedInApi';
import { execute, type TestClient } from './support/testApi';

const signedIn = useSignedInApi();

async function freeze(variables: Parameters<typeof freezeVariables>[0]) {
  const response = await execute(signedIn.admin, freezeTablesMutation, freezeVariables(variables));
  if (response.errors || !response.data) throw new Error(JSON.stringify(response.errors));
  return response.data.freezeTables;
}
const freezeVariables = (variables: {
  tables?: string[];
  all?: boolean;
  reason?: string;
  until?: string;
  rule?: 'waitForHolders' | 'endLocks';
}) => ({ reason: 'monthly close', rule: 'waitForHolders' as const, ...variables });

async function tableAs(client: TestClient, name: string) {
  const response = await execute(client, governedTableQuery, { name });
  if (response.errors || !response.data?.table) throw new Error(JSON.stringify(response));
  return response.data.table;
}

describe('freeze', () => {
  it('waiting for holders: they go on, nobody new starts; freeze and thaw are in the history and announced', async () => {
    const watcher = await signedIn.api.withApiKey('freeze-watcher', 'viewer');
    const changes = await subscribeLockChanges({
      url: signedIn.api.url,
      connectionParams: { authorization: watcher.headers.authorization },
      prisma: signedIn.database.prisma,
    });
    try {
      const held = await acquireTableLockAs(signedIn.alice, 'suppliers');
      const frozen = await freeze({ tables: ['suppliers', 'customers'] });
      expect(frozen).toEqual({ tables: ['customers', 'suppliers'], endedLocks: [] });
      await changes.waitFor((change) => change.action === 'freeze' && change.table === 'suppliers');

      const refused = await execute(signedIn.bob, acquireTableLockMutation, { table: 'customers' });
      expect(refusal(refused).code).toBe('TABLE_FROZEN');
      expect(refusal(refused).message).toContain('monthly close');
      expect(refused.errors?.[0]?.extensions).toMatchObject({
        editBlock: 'frozen',
        reason: 'monthly close',
      });
      expect(await tableAs(signedIn.bob, 'customers')).toMatchObject({
        frozen: { reason: 'monthly close', by: 'admin', until: null },
        editBlock: { kind: 'frozen', reason: 'monthly close' },
      });
      // The holder is not blocked: it renews and releases as before.
      expect((await tableAs(signedIn.alice, 'suppliers')).editBlock).toBeNull();
      const renewed = await execute(signedIn.alice, renewTableLockMutation, {
        table: 'suppliers',
        token: held.token,
      });
      expect(renewed.errors).toBeUndefined();
      await releaseTableLockAs(signedIn.alice, 'suppliers', held.token);
      const again = await execute(signedIn.alice, acquireTableLockMutation, { table: 'suppliers' });
      expect(refusal(again).code).toBe('TABLE_FROZEN');
      // Frozen tables are still locked as FK targets: their rows must not change under others.
      expect((await acquireTableLockAs(signedIn.bob, 'products')).lockedTables).toContain(
        'suppliers',
      );

      const thawed = await execute(signedIn.admin, thawTablesMutation, {
        tables: ['customers', 'suppliers'],
        reason: 'books closed',
      });
      expect(thawed.data?.thawTables.tables).toEqual(['customers', 'suppliers']);
      await changes.waitFor((change) => change.action === 'thaw' && change.table === 'customers');
      await acquireTableLockAs(signedIn.alice, 'customers');
      const history = await lockEvents(signedIn.admin, {
        table: 'customers',
        actions: ['freeze', 'thaw'],
      });
      expect(history.events.map((event) => [event.action, event.actor, event.reason])).toEqual([
        ['thaw', 'admin', 'books closed'],
        ['freeze', 'admin', 'monthly close'],
      ]);
    } finally {
      await changes.close();
    }
  });

  it('ending locks: holders lose them with the reason, as for a force-release', async () => {
    const held = await acquireTableLockAs(signedIn.alice, 'suppliers');
    const frozen = await freeze({ tables: ['suppliers'], rule: 'endLocks', reason: 'audit' });
    expect(frozen).toEqual({ tables: ['suppliers'], endedLocks: ['suppliers'] });

    const registry = await readRegistry(signedIn.database.prisma);
    for (const table of ['suppliers', 'currencies', 'regions']) {
      expect(registry.get(table)).toMatchObject({ status: 'normal', lockedBy: [] });
    }
    const renewed = await execute(signedIn.alice, renewTableLockMutation, {
      table: 'suppliers',
      token: held.token,
    });
    expect(refusal(renewed).code).toBe('LOCK_LOST');
    expect(refusal(renewed).message).toContain('Frozen: audit');
    const [ended] = (await lockEvents(signedIn.admin, { table: 'suppliers' })).events.filter(
      (event) => event.action === 'force_release',
    );
    expect(ended).toMatchObject({ actor: 'admin', editor: 'alice', reason: 'Frozen: audit' });
  });

  it('an end time: once it passes the table is free, and the sweeper records the thaw', async () => {
    const until = new Date(Date.now() + 3_600_000).toISOString();
    await freeze({ tables: ['regions'], until });
    expect((await tableAs(signedIn.bob, 'regions')).frozen?.until).toBe(until);
    const refused = await execute(signedIn.bob, acquireTableLockMutation, { table: 'regions' });
    expect(refusal(refused).code).toBe('TABLE_FROZEN');

    // The end time passes (by the database clock, which decides).
    await signedIn.database.prisma.$executeRaw`
      UPDATE tablelock.table_lock SET frozen_until = now() - interval '1 second'
      WHERE table_name = 'regions'`;
    expect((await tableAs(signedIn.bob, 'regions')).frozen).toBeNull();
    const grant = await acquireTableLockAs(signedIn.bob, 'regions');
    await releaseTableLockAs(signedIn.bob, 'regions', grant.token);

    expect(await thawEndedFreezes(signedIn.database.prisma)).toEqual(['regions']);
    expect(await thawEndedFreezes(signedIn.database.prisma)).toEqual([]);
    const [thaw] = (await lockEvents(signedIn.admin, { table: 'regions', actions: ['thaw'] }))
      .events;
    expect(thaw).toMatchObject({ actor: 'system', reason: 'freeze ended' });
  });

  it('all tables at once, and all thawed at once', async () => {
    const frozen = await freeze({ all: true });
    const registry = await readRegistry(signedIn.database.prisma);
    expect(frozen.tables).toEqual([...registry.keys()].sort());
    const refused = await execute(signedIn.alice, acquireTableLockMutation, { table: 'products' });
    expect(refusal(refused).code).toBe('TABLE_FROZEN');
    const thawed = await execute(signedIn.admin, thawTablesMutation, { all: true });
    expect(thawed.data?.thawTables.tables).toEqual(frozen.tables);
    await acquireTableLockAs(signedIn.alice, 'products');
  });

  it('bad input and non-admins change nothing', async () => {
    const freezeEvents = () =>
      signedIn.database.prisma.lockEvent.count({ where: { action: 'freeze' } });
    const before = await freezeEvents();
    const cases: [Parameters<typeof freezeVariables>[0], string][] = [
      [{ tables: ['regions'], reason: '  ' }, 'BAD_USER_INPUT'],
      [
        { tables: ['regions'], until: new Date(Date.now() - 60_000).toISOString() },
        'BAD_USER_INPUT',
      ],
      [{ tables: ['regions', 'nope'] }, 'TABLE_NOT_FOUND'],
      [{ tables: [] }, 'BAD_USER_INPUT'],
      [{ tables: ['regions'], all: true }, 'BAD_USER_INPUT'],
      [{}, 'BAD_USER_INPUT'],
    ];
    for (const [variables, code] of cases) {
      const response = await execute(
        signedIn.admin,
        freezeTablesMutation,
        freezeVariables(variables),
      );
      expect(refusal(response).code, JSON.stringify(variables)).toBe(code);
    }
    const byEditor = await execute(
      signedIn.alice,
      freezeTablesMutation,
      freezeVariables({ tables: ['regions'] }),
    );
    expect(refusal(byEditor).code).toBe('FORBIDDEN');
    const thawByEditor = await execute(signedIn.alice, thawTablesMutation, { all: true });
    expect(refusal(thawByEditor).code).toBe('FORBIDDEN');
    expect(
      await signedIn.database.prisma.tableLock.count({ where: { frozenAt: { not: null } } }),
    ).toBe(0);
    expect(await freezeEvents()).toBe(before);
  });
});
