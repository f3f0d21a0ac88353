import { describe, expect, it } from 'vitest';
import { subscribeLockChanges } from './support/lockChanges';
import {
  acquireTableLockAs,
  acquireTableLockMutation,
  forceReleaseAs,
  type LockEvent,
  lockEvents,
  refusal,
  releaseTableLockAs,
} from './support/lockOperations';
import { useSignedInApi } from './support/signedInApi';
import { execute } from './support/testApi';

const signedIn = useSignedInApi();

describe('audit history', () => {
  it('records a denied acquisition, naming the requester and the holder', async () => {
    // Listening before alice's acquisition: its announcement reaches the API a moment after her
    // answer, so a subscriber that came after the answer could still hear it.
    const changes = await subscribeLockChanges({
      url: signedIn.api.url,
      headers: signedIn.admin.headers,
      prisma: signedIn.database.prisma,
    });
    try {
      await acquireTableLockAs(signedIn.alice, 'customers');
      await changes.waitFor((change) => change.table === 'customers');
      const denied = refusal(
        await execute(signedIn.bob, acquireTableLockMutation, { table: 'customers' }),
      );
      expect(denied.code).toBe('LOCK_CONFLICT');
      expect(denied.message).toContain('being edited by alice');
      const { events } = await lockEvents(signedIn.admin, { table: 'customers' }, 0, 1);
      expect(events[0]).toMatchObject({ action: 'denied', actor: 'bob', editor: 'bob' });
      expect(events[0]?.reason).toContain('alice');

      // Denied attempts change nothing, so they are not announced: after the acquisition, the
      // release that follows is the next thing the subscriber hears about customers (changes
      // arrive in order).
      await forceReleaseAs(signedIn.admin, 'customers', 'end of test');
      await changes.waitFor(
        (change) => change.table === 'customers' && change.action !== 'acquire',
      );
      expect(changes.received.filter((change) => change.table === 'customers')).toMatchObject([
        { action: 'acquire' },
        { action: 'force_release' },
      ]);
    } finally {
      await changes.close();
    }
  });

  it('records a denied acquisition made with an idempotency key too', async () => {
    await acquireTableLockAs(signedIn.alice, 'price_lists');
    const denied = refusal(
      await execute(signedIn.bob, acquireTableLockMutation, {
        table: 'price_lists',
        key: 'denied-k',
      }),
    );
    expect(denied.code).toBe('LOCK_CONFLICT');
    const { events } = await lockEvents(signedIn.admin, { table: 'price_lists' }, 0, 1);
    expect(events[0]).toMatchObject({ action: 'denied', actor: 'bob' });
    await forceReleaseAs(signedIn.admin, 'price_lists', 'end of test');
  });

  it('filters by table, user, action and time range, and pages newest first', async () => {
    // The ordering checked below must be by number, not as text, so the ids must cross a power
    // of ten ('99' < '100'): the history of this file's database is shorter until then.
    const filler = await signedIn.api.withApiKey('audit-filler', 'editor');
    while ((await lockEvents(signedIn.admin, {}, 0, 1)).total <= 100) {
      const grant = await acquireTableLockAs(filler, 'regions');
      await releaseTableLockAs(filler, 'regions', grant.token);
    }
    const a = await signedIn.api.withApiKey('audit-a', 'editor');
    const b = await signedIn.api.withApiKey('audit-b', 'editor');
    const first = await acquireTableLockAs(a, 'warehouses');
    await releaseTableLockAs(a, 'warehouses', first.token);
    await acquireTableLockAs(b, 'warehouses');
    await forceReleaseAs(signedIn.admin, 'warehouses', 'audit test');
    const second = await acquireTableLockAs(a, 'currencies');
    await releaseTableLockAs(a, 'currencies', second.token);

    const byA = await lockEvents(signedIn.admin, { user: 'key:audit-a' });
    expect(byA.total).toBe(4);
    expect(byA.events.map((event) => [event.action, event.table])).toEqual([
      ['release', 'currencies'],
      ['acquire', 'currencies'],
      ['release', 'warehouses'],
      ['acquire', 'warehouses'],
    ]);
    const ids = byA.events.map((event) => BigInt(event.id));
    expect(ids).toEqual([...ids].sort((x, y) => (x > y ? -1 : x < y ? 1 : 0)));

    // A user's history includes what others did to the user's locks.
    const byB = await lockEvents(signedIn.admin, { user: 'key:audit-b' });
    expect(byB.events).toMatchObject([
      { action: 'force_release', actor: 'admin', editor: 'key:audit-b', reason: 'audit test' },
      { action: 'acquire', actor: 'key:audit-b' },
    ]);

    const aOnWarehouses = await lockEvents(signedIn.admin, {
      user: 'key:audit-a',
      table: 'warehouses',
    });
    expect(aOnWarehouses.events.map((event) => event.action)).toEqual(['release', 'acquire']);
    const onlyForced = await lockEvents(signedIn.admin, {
      user: 'key:audit-b',
      actions: ['force_release'],
    });
    expect(onlyForced).toMatchObject({ total: 1, events: [{ action: 'force_release' }] });
    const allForced = await lockEvents(
      signedIn.admin,
      { actions: ['force_release', 'expire'] },
      0,
      200,
    );
    expect(allForced.events.length).toBeGreaterThan(0);
    expect(
      allForced.events.every((event) => ['force_release', 'expire'].includes(event.action)),
    ).toBe(true);
    const onWarehouses = await lockEvents(signedIn.admin, { table: 'warehouses' }, 0, 200);
    expect(onWarehouses.events.every((event) => event.table === 'warehouses')).toBe(true);
    expect(onWarehouses.total).toBe(
      await signedIn.database.prisma.lockEvent.count({ where: { tableName: 'warehouses' } }),
    );

    // From (inclusive) 1 ms after this test's first event, to (exclusive) its last: the first
    // and last are out, and the filter must agree with the timestamps it returns.
    const ours = [...byA.events, ...byB.events];
    const times = ours.map((event) => Date.parse(event.at));
    const from = new Date(Math.min(...times) + 1).toISOString();
    const to = new Date(Math.max(...times)).toISOString();
    const latest = await lockEvents(signedIn.admin, {}, 0, 200);
    // Newest first by number, not as text.
    expect(latest.total).toBeGreaterThan(100);
    const latestIds = latest.events.map((event) => BigInt(event.id));
    for (const [i, id] of latestIds.entries()) {
      if (i > 0) expect(id).toBeLessThan(latestIds[i - 1] as bigint);
    }
    const expected = latest.events
      .filter((event) => event.at >= from && event.at < to)
      .map((event) => event.id);
    const inRange = await lockEvents(signedIn.admin, { from, to }, 0, 200);
    expect(inRange.events.map((event) => event.id)).toEqual(expected);
    expect(inRange.total).toBe(expected.length);
    expect(expected.length).toBeGreaterThan(0);
    const oldest = byA.events.at(-1) as LockEvent;
    const newest = byA.events[0] as LockEvent;
    expect(expected).not.toContain(oldest.id);
    expect(expected).not.toContain(newest.id);

    const pages = [];
    for (let offset = 0; offset < 4; offset++) {
      const page = await lockEvents(signedIn.admin, { user: 'key:audit-a' }, offset, 1);
      expect(page.total).toBe(4);
      pages.push(...page.events);
    }
    expect(pages).toEqual(byA.events);
    expect(await lockEvents(signedIn.admin, { user: 'key:audit-a' }, 4, 1)).toEqual({
      total: 4,
      events: [],
    });
    const twoByTwo = [
      ...(await lockEvents(signedIn.admin, { user: 'key:audit-a' }, 0, 2)).events,
      ...(await lockEvents(signedIn.admin, { user: 'key:audit-a' }, 2, 2)).events,
    ];
    expect(twoByTwo).toEqual(byA.events);
  });
});
