import { acquireTableLock, grantedOrConflict } from '@tablelock/lock';
import { poll } from '@tablelock/test-support';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { startLockSweeper } from '../src/process/lockSweeper';
import { subscribeLockChanges } from './support/lockChanges';
import {
  acquireTableLockAs,
  acquireTableLockMutation,
  granted,
  type LockEvent,
  lockEvents,
  refusal,
  releaseTableLockMutation,
  renewTableLockMutation,
} from './support/lockOperations';
import { readRegistry } from './support/registry';
import { useSignedInApi } from './support/signedInApi';
import { execute } from './support/testApi';

const signedIn = useSignedInApi();

/** Whether the database clock has passed `table`'s lease (false if it has none). */
async function leaseOver(table: string): Promise<boolean> {
  const [row] = await signedIn.database.prisma.$queryRaw<{ over: boolean }[]>`
    SELECT coalesce(lease_expires_at <= now(), false) AS over
    FROM tablelock.table_lock WHERE table_name = ${table}`;
  return row?.over ?? false;
}

const silent = pino({ level: 'silent' });
const SHORT_LEASE_SECONDS = 1;

describe('leases', () => {
  it('an expired lease frees the table: the next acquirer expires it and gets it', async () => {
    const held = grantedOrConflict(
      await acquireTableLock(signedIn.database.prisma, {
        tableName: 'regions',
        editor: 'alice',
        leaseSeconds: SHORT_LEASE_SECONDS,
      }),
    );
    const early = refusal(
      await execute(signedIn.bob, acquireTableLockMutation, { table: 'regions' }),
    );
    expect(early.code).toBe('LOCK_CONFLICT');
    expect(early.message).toContain('being edited by alice');

    // No sweeper runs in this test API: only bob's acquisition can end alice's dead lock.
    const grant = await poll(
      'bob acquiring regions',
      SHORT_LEASE_SECONDS * 1000 + 5_000,
      async () => {
        const response = await execute(signedIn.bob, acquireTableLockMutation, {
          table: 'regions',
        });
        if (response.data?.acquireTableLock) return response.data.acquireTableLock;
        expect(refusal(response)).toMatchObject({ code: 'LOCK_CONFLICT' });
        expect(refusal(response).message).toContain('alice');
        return undefined;
      },
    );
    expect(grant.editor).toBe('bob');
    expect(BigInt(grant.token)).toBeGreaterThan(BigInt(held.fencingToken));

    const { events } = await lockEvents(signedIn.admin, {
      table: 'regions',
      actions: ['acquire', 'expire'],
    });
    expect(events.slice(0, 3)).toMatchObject([
      { action: 'acquire', actor: 'bob', editor: 'bob', token: grant.token },
      {
        action: 'expire',
        actor: 'system',
        editor: 'alice',
        token: held.fencingToken,
        reason: 'lease expired',
      },
      { action: 'acquire', actor: 'alice', token: held.fencingToken },
    ]);
    const expired = events[1] as LockEvent;
    // Expired by the database clock, not before the lease ended.
    expect(Date.parse(expired.at)).toBeGreaterThanOrEqual(held.leaseExpiresAt?.getTime() ?? 0);
    expect((await readRegistry(signedIn.database.prisma)).get('regions')).toMatchObject({
      status: 'editing',
      editor: 'bob',
    });
  });

  it('the sweeper ends an expired lock within lease + 5 s: announced, recorded, FK holds gone', async () => {
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
      const held = grantedOrConflict(
        await acquireTableLock(signedIn.database.prisma, {
          tableName: 'warehouses',
          editor: 'alice',
          leaseSeconds: SHORT_LEASE_SECONDS,
        }),
      );
      expect(held.lockedTables).toEqual(['regions']);

      const expired = await changes.waitFor(
        (change) => change.table === 'warehouses' && change.action === 'expire',
        SHORT_LEASE_SECONDS * 1000 + 5_000,
      );
      expect(expired).toMatchObject({
        actor: 'system',
        editor: 'alice',
        token: held.fencingToken,
        reason: 'lease expired',
      });
      const lateBy = Date.parse(expired.at) - (held.leaseExpiresAt?.getTime() ?? Number.NaN);
      expect(lateBy).toBeGreaterThanOrEqual(0);
      expect(lateBy).toBeLessThan(5_000);
      // The subscriber saw the acquisition first: changes arrive in commit order.
      const warehouses = changes.received.filter((change) => change.table === 'warehouses');
      expect(warehouses.map((change) => change.action)).toEqual(['acquire', 'expire']);

      const registry = await readRegistry(signedIn.database.prisma);
      expect(registry.get('warehouses')).toMatchObject({ status: 'normal', editor: null });
      expect(registry.get('regions')).toMatchObject({ status: 'normal', lockedBy: [] });
      const { events } = await lockEvents(
        signedIn.admin,
        { table: 'warehouses', actions: ['expire'] },
        0,
        1,
      );
      expect(events[0]).toMatchObject({
        id: expired.id,
        actor: 'system',
        token: held.fencingToken,
      });
    } finally {
      await changes.close();
      await stopSweeper();
    }
  });

  it('renewTableLock extends the lease; a stale or expired token cannot be renewed', async () => {
    const grant = await acquireTableLockAs(signedIn.alice, 'currencies', { lease: 15 });
    const renewed = granted(
      await execute(signedIn.alice, renewTableLockMutation, {
        table: 'currencies',
        token: grant.token,
        lease: 3600,
      }),
      'renewTableLock',
      'renewing currencies',
    );
    expect(renewed.token).toBe(grant.token);
    const extendedBy =
      Date.parse(renewed.leaseExpiresAt ?? '') - Date.parse(grant.leaseExpiresAt ?? '');
    expect(extendedBy).toBeGreaterThan(3_500_000);
    const row = await signedIn.database.prisma.tableLock.findUniqueOrThrow({
      where: { tableName: 'currencies' },
    });
    expect(row.leaseExpiresAt?.toISOString()).toBe(renewed.leaseExpiresAt);

    expect(
      (
        await execute(signedIn.alice, releaseTableLockMutation, {
          table: 'currencies',
          token: grant.token,
        })
      ).errors,
    ).toBe(undefined);
    const again = await acquireTableLockAs(signedIn.alice, 'currencies');
    const stale = refusal(
      await execute(signedIn.alice, renewTableLockMutation, {
        table: 'currencies',
        token: grant.token,
        lease: 60,
      }),
    );
    expect(stale.code).toBe('LOCK_LOST');
    expect(stale.message).toContain('your lock on currencies was released');
    const current = await signedIn.database.prisma.tableLock.findUniqueOrThrow({
      where: { tableName: 'currencies' },
    });
    expect(current.fencingToken?.toString()).toBe(again.token);
    expect(current.leaseExpiresAt?.toISOString()).toBe(again.leaseExpiresAt);

    const short = grantedOrConflict(
      await acquireTableLock(signedIn.database.prisma, {
        tableName: 'categories',
        editor: 'alice',
        leaseSeconds: SHORT_LEASE_SECONDS,
      }),
    );
    await poll('categories lease over', SHORT_LEASE_SECONDS * 1000 + 5_000, async () =>
      (await leaseOver('categories')) ? true : undefined,
    );
    const late = refusal(
      await execute(signedIn.alice, renewTableLockMutation, {
        table: 'categories',
        token: short.fencingToken,
        lease: 60,
      }),
    );
    expect(late.code).toBe('LOCK_LOST');
    expect(late.message).toContain('expired');
  });
});
