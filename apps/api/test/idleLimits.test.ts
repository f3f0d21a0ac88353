import { expireLeases } from '@tablelock/lock';
import { pino } from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import { startLockSweeper } from '../src/process/lockSweeper';
import { graphql } from './generated';
import { subscribeLockChanges } from './support/lockChanges';
import {
  acquireTableLockAs,
  granted,
  lockEvents,
  refusal,
  saveRowsMutation,
} from './support/lockOperations';
import { readRegistry } from './support/registry';
import { useSignedInApi } from './support/signedInApi';
import { execute } from './support/testApi';

const signedIn = useSignedInApi();
const silent = pino({ level: 'silent' });

const renewMutation = graphql(`
  mutation RenewActively($table: String!, $token: String!, $active: Boolean) {
    renewTableLock(table: $table, token: $token, leaseSeconds: 30, active: $active) {
      ...LockGrantFields
    }
  }
`);

const renewWithoutActivityArgument = graphql(`
  mutation RenewAsOtherSystems($table: String!, $token: String!) {
    renewTableLock(table: $table, token: $token) {
      lastActiveAt
    }
  }
`);

const lockSettingsQuery = graphql(`
  query LockSettings {
    lockSettings {
      idleLimitSeconds
      minIdleLimitSeconds
      maxIdleLimitSeconds
      tables {
        table
        idleLimitSeconds
      }
    }
  }
`);

const setIdleLimitMutation = graphql(`
  mutation SetIdleLimit($seconds: Int!) {
    setIdleLimit(seconds: $seconds) {
      idleLimitSeconds
    }
  }
`);

const setTableIdleLimitMutation = graphql(`
  mutation SetTableIdleLimit($table: String!, $seconds: Int) {
    setTableIdleLimit(table: $table, seconds: $seconds) {
      idleLimitSeconds
      tables {
        table
        idleLimitSeconds
      }
    }
  }
`);

const tableIdleLimitQuery = graphql(`
  query TableIdleLimit($name: String!) {
    table(name: $name) {
      idleLimitSeconds
      lastActiveAt
    }
  }
`);

const settingsEventsQuery = graphql(`
  query LockSettingsEvents {
    securityEvents(filter: { actions: [lock_settings_changed] }) {
      events {
        action
        actor
        subject
        idleLimitSeconds
        previousIdleLimitSeconds
      }
    }
  }
`);

beforeEach(async () => {
  const { prisma } = signedIn.database;
  await prisma.lockSettings.update({ where: { id: true }, data: { idleLimitSeconds: 900 } });
  await prisma.tablePolicy.deleteMany();
});

/**
 * Makes `table`'s holder look inactive for `seconds` by moving its last activity back on the
 * database clock: the idle limit is judged by that clock, so this stands for the wait.
 */
async function idleFor(table: string, seconds: number): Promise<Date> {
  const [row] = await signedIn.database.prisma.$queryRaw<{ last_active_at: Date }[]>`
    UPDATE tablelock.table_lock SET last_active_at = now() - make_interval(secs => ${seconds})
    WHERE table_name = ${table} AND status = 'editing' RETURNING last_active_at`;
  if (!row) throw new Error(`${table} is not being edited`);
  return row.last_active_at;
}

async function databaseNow(): Promise<Date> {
  const [row] = await signedIn.database.prisma.$queryRaw<{ now: Date }[]>`SELECT now()`;
  return (row as { now: Date }).now;
}

async function idleExpiries(table: string, token: string) {
  const { events } = await lockEvents(signedIn.admin, { table, actions: ['expire'] });
  return events.filter((event) => event.token === token);
}

describe('idle limits', () => {
  it('an active renewal moves the last activity; an inactive one leaves it', async () => {
    const grant = await acquireTableLockAs(signedIn.alice, 'regions', { lease: 30 });
    const before = await idleFor('regions', 300);

    const inactive = granted(
      await execute(signedIn.alice, renewMutation, {
        table: 'regions',
        token: grant.token,
        active: false,
      }),
      'renewTableLock',
      'inactive renewal',
    );
    expect(new Date(inactive.lastActiveAt ?? 0)).toEqual(before);
    expect(inactive.idleLimitSeconds).toBe(900);
    // The lease moves all the same: an idle holder keeps the lock until the idle limit.
    expect(Date.parse(inactive.leaseExpiresAt ?? '')).toBeGreaterThan(before.getTime() + 300_000);

    const renewedFrom = await databaseNow();
    const active = granted(
      await execute(signedIn.alice, renewMutation, {
        table: 'regions',
        token: grant.token,
        active: true,
      }),
      'renewTableLock',
      'active renewal',
    );
    expect(Date.parse(active.lastActiveAt ?? '')).toBeGreaterThanOrEqual(renewedFrom.getTime());
    const { data } = await execute(signedIn.bob, tableIdleLimitQuery, { name: 'regions' });
    expect(data?.table).toEqual({ idleLimitSeconds: 900, lastActiveAt: active.lastActiveAt });
  });

  it('clients that do not say `active` count as active', async () => {
    const grant = await acquireTableLockAs(signedIn.alice, 'regions', { lease: 30 });
    const before = await idleFor('regions', 300);
    const response = await execute(signedIn.alice, renewWithoutActivityArgument, {
      table: 'regions',
      token: grant.token,
    });
    expect(response.errors).toBeUndefined();
    expect(Date.parse(response.data?.renewTableLock.lastActiveAt ?? '')).toBeGreaterThan(
      before.getTime() + 299_000,
    );
  });

  it('the sweeper ends a lock idle past its limit as `expire` by system, reason idle, with its FK locks', async () => {
    const stopSweeper = startLockSweeper({
      prisma: signedIn.database.prisma,
      logger: silent,
      intervalMs: 250,
    });
    // The holder: others read no token of hers (issue 40).
    const changes = await subscribeLockChanges({
      url: signedIn.api.url,
      headers: signedIn.alice.headers,
      prisma: signedIn.database.prisma,
    });
    try {
      const grant = await acquireTableLockAs(signedIn.alice, 'warehouses', { lease: 30 });
      expect(grant.lockedTables).toEqual(['regions']);
      await idleFor('warehouses', 901);

      const expired = await changes.waitFor(
        (change) => change.table === 'warehouses' && change.action === 'expire',
        5_000,
      );
      expect(expired).toMatchObject({
        actor: 'system',
        editor: 'alice',
        token: grant.token,
        reason: 'idle',
      });
      const registry = await readRegistry(signedIn.database.prisma);
      expect(registry.get('warehouses')).toMatchObject({ status: 'normal', editor: null });
      expect(registry.get('regions')).toMatchObject({ status: 'normal', lockedBy: [] });

      const renewal = refusal(
        await execute(signedIn.alice, renewMutation, {
          table: 'warehouses',
          token: grant.token,
          active: true,
        }),
      );
      expect(renewal.code).toBe('LOCK_LOST');
      expect(renewal.message).toContain('inactive for longer than its idle limit');
    } finally {
      await changes.close();
      await stopSweeper();
    }
  });

  it('a lock within its idle limit is left alone, though idle for a while', async () => {
    const grant = await acquireTableLockAs(signedIn.alice, 'categories', { lease: 30 });
    await idleFor('categories', 890);
    expect(await expireLeases(signedIn.database.prisma)).toEqual([]);
    expect((await readRegistry(signedIn.database.prisma)).get('categories')).toMatchObject({
      status: 'editing',
      editor: 'alice',
    });
    expect(await idleExpiries('categories', grant.token)).toEqual([]);
  });

  it("a table's own limit overrides the global one; null follows the global one again", async () => {
    await execute(signedIn.admin, setIdleLimitMutation, { seconds: 120 });
    await execute(signedIn.admin, setTableIdleLimitMutation, {
      table: 'currencies',
      seconds: 3600,
    });
    const categories = await acquireTableLockAs(signedIn.alice, 'categories', { lease: 30 });
    const currencies = await acquireTableLockAs(signedIn.bob, 'currencies', { lease: 30 });
    expect(categories.idleLimitSeconds).toBe(120);
    expect(currencies.idleLimitSeconds).toBe(3600);
    await idleFor('categories', 300);
    await idleFor('currencies', 300);

    expect(await expireLeases(signedIn.database.prisma)).toEqual(['categories']);
    expect((await readRegistry(signedIn.database.prisma)).get('currencies')).toMatchObject({
      status: 'editing',
      editor: 'bob',
    });

    await execute(signedIn.admin, setTableIdleLimitMutation, {
      table: 'currencies',
      seconds: null,
    });
    expect(await expireLeases(signedIn.database.prisma)).toEqual(['currencies']);
    expect(await idleExpiries('currencies', currencies.token)).toMatchObject([
      { actor: 'system', editor: 'bob', reason: 'idle' },
    ]);
  });

  it('a renewal that finds its lock idle past the limit ends it (recorded as idle) and is LOCK_LOST', async () => {
    const grant = await acquireTableLockAs(signedIn.alice, 'regions', { lease: 30 });
    await idleFor('regions', 1000);
    const renewal = refusal(
      await execute(signedIn.alice, renewMutation, {
        table: 'regions',
        token: grant.token,
        active: true,
      }),
    );
    expect(renewal.code).toBe('LOCK_LOST');
    expect(renewal.message).toContain('inactive for longer than its idle limit');
    expect(await idleExpiries('regions', grant.token)).toMatchObject([
      { actor: 'system', editor: 'alice', reason: 'idle' },
    ]);
  });

  it('a save by a holder idle past the limit is refused', async () => {
    const grant = await acquireTableLockAs(signedIn.alice, 'currencies', { lease: 30 });
    await idleFor('currencies', 1000);
    const save = refusal(
      await execute(signedIn.alice, saveRowsMutation, {
        table: 'currencies',
        token: grant.token,
        changes: { inserts: [{ values: { code: 'XTS', name: 'Test', minor_units: '2' } }] },
      }),
    );
    expect(save.code).toBe('LOCK_LOST');
    expect(save.message).toContain('inactive');
    const [row] = await signedIn.database.prisma.$queryRaw<{ count: number }[]>`
      SELECT count(*)::int AS count FROM master.currencies WHERE code = 'XTS'`;
    expect(row?.count).toBe(0);
  });

  it('a lock without a lease never goes idle', async () => {
    const batch = await signedIn.api.withApiKey('idle-batch', 'admin');
    const grant = await acquireTableLockAs(batch, 'categories', { lease: null });
    expect(grant.leaseExpiresAt).toBeNull();
    expect(grant.idleLimitSeconds).toBeNull();
    await idleFor('categories', 100_000);
    expect(await expireLeases(signedIn.database.prisma)).toEqual([]);
  });

  it('several sweepers at once record one idle expiry', async () => {
    const grant = await acquireTableLockAs(signedIn.alice, 'warehouses', { lease: 30 });
    await idleFor('warehouses', 1000);
    const rounds = await Promise.all(
      Array.from({ length: 8 }, () => expireLeases(signedIn.database.prisma)),
    );
    expect(rounds.flat()).toEqual(['warehouses']);
    expect(await idleExpiries('warehouses', grant.token)).toHaveLength(1);
    expect((await readRegistry(signedIn.database.prisma)).get('regions')).toMatchObject({
      status: 'normal',
    });
  });
});

describe('idle limit settings', () => {
  it('only admins read or change them', async () => {
    for (const response of [
      await execute(signedIn.alice, lockSettingsQuery),
      await execute(signedIn.alice, setIdleLimitMutation, { seconds: 600 }),
      await execute(signedIn.alice, setTableIdleLimitMutation, { table: 'products', seconds: 600 }),
    ]) {
      expect(refusal(response).code).toBe('FORBIDDEN');
    }
    const { data } = await execute(signedIn.admin, lockSettingsQuery);
    expect(data?.lockSettings).toEqual({
      idleLimitSeconds: 900,
      minIdleLimitSeconds: 60,
      maxIdleLimitSeconds: 86_400,
      tables: [],
    });
  });

  it('bad input is BAD_USER_INPUT (or TABLE_NOT_FOUND) and changes nothing', async () => {
    for (const response of [
      await execute(signedIn.admin, setIdleLimitMutation, { seconds: 59 }),
      await execute(signedIn.admin, setIdleLimitMutation, { seconds: 86_401 }),
      await execute(signedIn.admin, setTableIdleLimitMutation, { table: 'products', seconds: 0 }),
    ]) {
      expect(refusal(response).code).toBe('BAD_USER_INPUT');
      expect(refusal(response).message).toContain('from 60 to 86400');
    }
    const unknown = await execute(signedIn.admin, setTableIdleLimitMutation, {
      table: 'nope',
      seconds: 600,
    });
    expect(refusal(unknown).code).toBe('TABLE_NOT_FOUND');
    const { data } = await execute(signedIn.admin, lockSettingsQuery);
    expect(data?.lockSettings).toMatchObject({ idleLimitSeconds: 900, tables: [] });
  });

  it('changes are kept, shown on the tables and recorded in the security events', async () => {
    const global = await execute(signedIn.admin, setIdleLimitMutation, { seconds: 600 });
    expect(global.data?.setIdleLimit.idleLimitSeconds).toBe(600);
    const own = await execute(signedIn.admin, setTableIdleLimitMutation, {
      table: 'products',
      seconds: 1800,
    });
    expect(own.data?.setTableIdleLimit).toEqual({
      idleLimitSeconds: 600,
      tables: [{ table: 'products', idleLimitSeconds: 1800 }],
    });
    const products = await execute(signedIn.bob, tableIdleLimitQuery, { name: 'products' });
    const regions = await execute(signedIn.bob, tableIdleLimitQuery, { name: 'regions' });
    expect(products.data?.table?.idleLimitSeconds).toBe(1800);
    expect(regions.data?.table?.idleLimitSeconds).toBe(600);

    const back = await execute(signedIn.admin, setTableIdleLimitMutation, {
      table: 'products',
      seconds: null,
    });
    expect(back.data?.setTableIdleLimit.tables).toEqual([]);

    const { data } = await execute(signedIn.admin, settingsEventsQuery);
    expect(data?.securityEvents.events.slice(0, 3)).toEqual([
      {
        action: 'lock_settings_changed',
        actor: 'admin',
        subject: 'table:products',
        idleLimitSeconds: null,
        previousIdleLimitSeconds: 1800,
      },
      {
        action: 'lock_settings_changed',
        actor: 'admin',
        subject: 'table:products',
        idleLimitSeconds: 1800,
        previousIdleLimitSeconds: null,
      },
      {
        action: 'lock_settings_changed',
        actor: 'admin',
        subject: 'lock_settings',
        idleLimitSeconds: 600,
        previousIdleLimitSeconds: 900,
      },
    ]);
  });
});
