import { createUser } from '@tablelock/identity';
import { acquireTableLock, grantedOrConflict } from '@tablelock/lock';
import {
  createTestDatabase,
  resetLockRegistry,
  TEST_AUDIT,
  type TestDatabase,
} from '@tablelock/test-support';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startLockSweeper } from '../src/live/lockSweeper';
import { type LockChange, subscribeLockChanges } from './support/lockChanges';
import { readRegistry } from './support/registry';
import {
  type GraphQLResponse,
  startTestApi,
  type TestApi,
  type TestClient,
} from './support/testApi';

let database: TestDatabase;
let api: TestApi;
let alice: TestClient;
let bob: TestClient;
let admin: TestClient;

async function logInEveryone() {
  [alice, bob, admin] = await Promise.all([
    api.loginAs('alice'),
    api.loginAs('bob'),
    api.loginAs('admin'),
  ]);
}

beforeAll(async () => {
  database = await createTestDatabase();
  api = await startTestApi(database);
  await logInEveryone();
});
afterAll(async () => {
  await api.stop();
  await database.close();
});
beforeEach(() => resetLockRegistry(database.prisma));

interface Grant {
  table: string;
  editor: string;
  token: string;
  leaseExpiresAt: string | null;
  lockedTables: string[];
}

const GRANT = 'table editor token leaseExpiresAt lockedTables';
const ACQUIRE = `mutation($table: String!, $lease: Int, $key: String) {
  acquireTableLock(table: $table, leaseSeconds: $lease, idempotencyKey: $key) { ${GRANT} }
}`;
const RENEW = `mutation($table: String!, $token: String!, $lease: Int) {
  renewTableLock(table: $table, token: $token, leaseSeconds: $lease) { ${GRANT} }
}`;
const RELEASE = `mutation($table: String!, $token: String!) {
  releaseTableLock(table: $table, token: $token) { status }
}`;
const TAKE_OVER = `mutation($table: String!, $reason: String!) {
  takeOverTableLock(table: $table, reason: $reason) { ${GRANT} }
}`;
const FORCE_RELEASE = `mutation($table: String!, $reason: String!) {
  forceRelease(table: $table, reason: $reason) { status }
}`;
const SAVE = `mutation($table: String!, $token: String!, $changes: RowChanges!, $key: String) {
  saveRows(table: $table, token: $token, changes: $changes, idempotencyKey: $key) {
    saved inserted updated deleted
  }
}`;
const LOCK_EVENTS = `query($filter: LockEventFilter, $offset: Int, $limit: Int) {
  lockEvents(filter: $filter, offset: $offset, limit: $limit) {
    total events { id at action table actor editor token reason rowsChanged }
  }
}`;

type LockEvent = LockChange;
interface LockEventFilter {
  table?: string;
  user?: string;
  actions?: string[];
  from?: string;
  to?: string;
}

async function acquire(
  client: TestClient,
  table: string,
  options: { lease?: number; key?: string } = {},
): Promise<Grant> {
  const response = await client.graphql<{ acquireTableLock: Grant }>(ACQUIRE, {
    table,
    ...options,
  });
  return granted(response, 'acquireTableLock', `${client.name} acquiring ${table}`);
}

function granted<K extends string>(
  response: GraphQLResponse<Record<K, Grant>>,
  field: K,
  what: string,
): Grant {
  const grant = response.data?.[field];
  if (response.errors || !grant) throw new Error(`${what} failed: ${JSON.stringify(response)}`);
  return grant;
}

async function lockEvents(
  filter: LockEventFilter,
  offset = 0,
  limit = 50,
): Promise<{ total: number; events: LockEvent[] }> {
  const response = await admin.graphql<{ lockEvents: { total: number; events: LockEvent[] } }>(
    LOCK_EVENTS,
    { filter, offset, limit },
  );
  if (response.errors || !response.data) throw new Error(JSON.stringify(response.errors));
  return response.data.lockEvents;
}

const refusal = (response: GraphQLResponse<unknown>) => ({
  code: response.errors?.[0]?.extensions?.code,
  message: response.errors?.[0]?.message ?? '',
});

/**
 * Calls `attempt` until it returns a value, pausing `intervalMs` between calls (so as not to
 * flood the API), and fails once `timeoutMs` has passed: for outcomes that take real time,
 * such as a lease running out.
 */
async function poll<T>(
  what: string,
  timeoutMs: number,
  attempt: () => Promise<T | undefined>,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await attempt();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

async function rowCount(table: string, id: string): Promise<number> {
  const [row] = await database.prisma.$queryRawUnsafe<{ count: number }[]>(
    `SELECT count(*)::int AS count FROM master.${table} WHERE id = $1::int`,
    id,
  );
  return row?.count ?? -1;
}

/** Whether the database clock has passed `table`'s lease (false if it has none). */
async function leaseOver(table: string): Promise<boolean> {
  const [row] = await database.prisma.$queryRaw<{ over: boolean }[]>`
    SELECT coalesce(lease_expires_at <= now(), false) AS over
    FROM tablelock.table_lock WHERE table_name = ${table}`;
  return row?.over ?? false;
}

const silent = pino({ level: 'silent' });
const SHORT_LEASE_SECONDS = 1;

describe('leases', () => {
  it('an expired lease frees the table: the next acquirer expires it and gets it', async () => {
    const held = grantedOrConflict(
      await acquireTableLock(database.prisma, {
        tableName: 'regions',
        editor: 'alice',
        leaseSeconds: SHORT_LEASE_SECONDS,
      }),
    );
    const early = refusal(await bob.graphql(ACQUIRE, { table: 'regions' }));
    expect(early.code).toBe('LOCK_CONFLICT');
    expect(early.message).toContain('being edited by alice');

    // No sweeper runs in this test API: only bob's acquisition can end alice's dead lock.
    const grant = await poll(
      'bob acquiring regions',
      SHORT_LEASE_SECONDS * 1000 + 5_000,
      async () => {
        const response = await bob.graphql<{ acquireTableLock: Grant }>(ACQUIRE, {
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

    const { events } = await lockEvents({ table: 'regions', actions: ['acquire', 'expire'] });
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
    expect((await readRegistry(database.prisma)).get('regions')).toMatchObject({
      status: 'editing',
      editor: 'bob',
    });
  });

  it('the sweeper ends an expired lock within lease + 5 s: announced, recorded, FK holds gone', async () => {
    const stopSweeper = startLockSweeper({
      prisma: database.prisma,
      logger: silent,
      intervalMs: 250,
    });
    const changes = await subscribeLockChanges({
      url: api.url,
      headers: bob.headers,
      prisma: database.prisma,
    });
    try {
      const held = grantedOrConflict(
        await acquireTableLock(database.prisma, {
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

      const registry = await readRegistry(database.prisma);
      expect(registry.get('warehouses')).toMatchObject({ status: 'normal', editor: null });
      expect(registry.get('regions')).toMatchObject({ status: 'normal', lockedBy: [] });
      const { events } = await lockEvents({ table: 'warehouses', actions: ['expire'] }, 0, 1);
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
    const grant = await acquire(alice, 'currencies', { lease: 15 });
    const renewed = granted(
      await alice.graphql<{ renewTableLock: Grant }>(RENEW, {
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
    const row = await database.prisma.tableLock.findUniqueOrThrow({
      where: { tableName: 'currencies' },
    });
    expect(row.leaseExpiresAt?.toISOString()).toBe(renewed.leaseExpiresAt);

    expect((await alice.graphql(RELEASE, { table: 'currencies', token: grant.token })).errors).toBe(
      undefined,
    );
    const again = await acquire(alice, 'currencies');
    const stale = refusal(
      await alice.graphql(RENEW, { table: 'currencies', token: grant.token, lease: 60 }),
    );
    expect(stale.code).toBe('LOCK_LOST');
    expect(stale.message).toContain('your lock on currencies was released');
    const current = await database.prisma.tableLock.findUniqueOrThrow({
      where: { tableName: 'currencies' },
    });
    expect(current.fencingToken?.toString()).toBe(again.token);
    expect(current.leaseExpiresAt?.toISOString()).toBe(again.leaseExpiresAt);

    const short = grantedOrConflict(
      await acquireTableLock(database.prisma, {
        tableName: 'categories',
        editor: 'alice',
        leaseSeconds: SHORT_LEASE_SECONDS,
      }),
    );
    await poll('categories lease over', SHORT_LEASE_SECONDS * 1000 + 5_000, async () =>
      (await leaseOver('categories')) ? true : undefined,
    );
    const late = refusal(
      await alice.graphql(RENEW, { table: 'categories', token: short.fencingToken, lease: 60 }),
    );
    expect(late.code).toBe('LOCK_LOST');
    expect(late.message).toContain('expired');
  });
});

describe('fencing tokens', () => {
  it('strictly increase over acquisitions and take-overs, and across an API restart', async () => {
    const grants = [
      await acquire(alice, 'currencies'),
      await acquire(bob, 'regions'),
      await acquire(admin, 'categories'),
      granted(
        await alice.graphql<{ takeOverTableLock: Grant }>(TAKE_OVER, {
          table: 'currencies',
          reason: 'second tab',
        }),
        'takeOverTableLock',
        'alice taking over currencies',
      ),
      await acquire(bob, 'stock_levels'),
    ];
    const tokens = grants.map((grant) => BigInt(grant.token));
    for (const [i, token] of tokens.entries()) {
      if (i > 0) expect(token).toBeGreaterThan(tokens[i - 1] as bigint);
    }

    await api.stop();
    api = await startTestApi(database);
    await logInEveryone();
    await resetLockRegistry(database.prisma);
    const afterRestart = await acquire(bob, 'suppliers');
    expect(BigInt(afterRestart.token)).toBeGreaterThan(tokens.at(-1) as bigint);
  });
});

describe('force-release racing saves', () => {
  it('a save either commits before the release or fails with LOCK_LOST and writes nothing', async () => {
    const ROUNDS = 40;
    const outcomes = { savedFirst: 0, lost: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const grant = await acquire(alice, 'categories');
      const id = String(5000 + round);
      const save = () =>
        alice.graphql<{ saveRows: { saved: boolean; inserted: number } }>(SAVE, {
          table: 'categories',
          token: grant.token,
          changes: { inserts: [{ values: { id, name: `race marker ${round}` } }] },
        });
      const forceRelease = () =>
        admin.graphql(FORCE_RELEASE, { table: 'categories', reason: `race round ${round}` });
      // Alternate which request leaves first, so neither side is always ahead.
      const [saved, released] =
        round % 2 === 0
          ? await Promise.all([save(), forceRelease()])
          : await Promise.all([forceRelease(), save()]).then(([r, s]) => [s, r] as const);

      expect(released.errors, `round ${round}`).toBeUndefined();
      const events = await database.prisma.$queryRaw<{ id: bigint; action: string }[]>`
        SELECT id, action::text AS action FROM tablelock.lock_event
        WHERE table_name = 'categories' AND token = ${grant.token}::bigint
          AND action IN ('save', 'force_release')
        ORDER BY id`;
      const forced = events.filter((event) => event.action === 'force_release');
      const saves = events.filter((event) => event.action === 'save');
      expect(forced, `round ${round}`).toHaveLength(1);
      const marker = await rowCount('categories', id);
      if (saved.data?.saveRows?.saved) {
        outcomes.savedFirst++;
        expect(saved.data.saveRows.inserted).toBe(1);
        expect(saves, `round ${round}`).toHaveLength(1);
        expect(saves[0]?.id, `round ${round}`).toBeLessThan(forced[0]?.id as bigint);
        expect(marker, `round ${round}`).toBe(1);
      } else {
        outcomes.lost++;
        expect(refusal(saved), `round ${round}`).toMatchObject({ code: 'LOCK_LOST' });
        expect(refusal(saved).message).toContain('admin force-released your lock on categories');
        expect(saves, `round ${round}`).toEqual([]);
        expect(marker, `round ${round}`).toBe(0);
      }
    }
    expect(outcomes.savedFirst + outcomes.lost).toBe(ROUNDS);
    expect((await readRegistry(database.prisma)).get('categories')?.status).toBe('normal');
  });
});

describe('take-over', () => {
  it('an admin takes over in one step: the FK locks stay, the old token is LOCK_LOST', async () => {
    const watcher = await api.withApiKey('take-over-watcher', 'viewer');
    const changes = await subscribeLockChanges({
      url: api.url,
      connectionParams: { authorization: watcher.headers.authorization },
      table: 'suppliers',
      prisma: database.prisma,
    });
    try {
      const first = await acquire(alice, 'suppliers');
      expect(first.lockedTables).toEqual(['currencies', 'regions']);

      const samples: Awaited<ReturnType<typeof readRegistry>>[] = [];
      let taking = true;
      const sampler = (async () => {
        while (taking) samples.push(await readRegistry(database.prisma));
      })();
      const response = await admin
        .graphql<{ takeOverTableLock: Grant }>(TAKE_OVER, {
          table: 'suppliers',
          reason: 'alice is on leave',
        })
        .finally(() => {
          taking = false;
        });
      await sampler;
      samples.push(await readRegistry(database.prisma));
      const taken = granted(response, 'takeOverTableLock', 'admin taking over suppliers');
      expect(taken).toMatchObject({ editor: 'admin', lockedTables: ['currencies', 'regions'] });
      expect(BigInt(taken.token)).toBeGreaterThan(BigInt(first.token));
      for (const registry of samples) {
        expect(registry.get('suppliers')?.status).toBe('editing');
        for (const target of ['currencies', 'regions']) {
          expect(registry.get(target)).toMatchObject({ status: 'locked', lockedBy: ['suppliers'] });
        }
      }
      expect(samples.at(-1)?.get('suppliers')?.editor).toBe('admin');

      const lost = await alice.graphql(SAVE, {
        table: 'suppliers',
        token: first.token,
        changes: {
          inserts: [
            {
              values: {
                id: '9001',
                name: 'Too late',
                region_id: '10',
                currency_code: 'JPY',
                contract_start: '2026-01-01',
              },
            },
          ],
        },
      });
      expect(refusal(lost).code).toBe('LOCK_LOST');
      expect(refusal(lost).message).toContain('admin took over suppliers');
      expect(refusal(lost).message).toContain('alice is on leave');
      expect(await rowCount('suppliers', '9001')).toBe(0);

      const announced = await changes.waitFor((change) => change.action === 'take_over');
      expect(announced).toMatchObject({
        table: 'suppliers',
        actor: 'admin',
        editor: 'admin',
        token: taken.token,
        reason: 'alice is on leave',
        previousEditor: 'alice',
      });
      const [recorded] = await database.prisma.$queryRaw<{ details: { previousEditor: string } }[]>`
        SELECT details FROM tablelock.lock_event WHERE id = ${announced.id}::bigint`;
      expect(recorded?.details.previousEditor).toBe('alice');
    } finally {
      await changes.close();
    }
  });

  it('a user cannot take over anyone else’s lock, but can take over their own from another session', async () => {
    const first = await acquire(alice, 'suppliers');
    const refused = refusal(
      await bob.graphql(TAKE_OVER, { table: 'suppliers', reason: 'I need it' }),
    );
    expect(refused.code).toBe('FORBIDDEN');
    expect(refused.message).toContain('alice');
    const untouched = await database.prisma.tableLock.findUniqueOrThrow({
      where: { tableName: 'suppliers' },
    });
    expect(untouched).toMatchObject({ status: 'editing', editor: 'alice' });
    expect(untouched.fencingToken?.toString()).toBe(first.token);

    const aliceOnLaptop = await api.loginAs('alice');
    const moved = granted(
      await aliceOnLaptop.graphql<{ takeOverTableLock: Grant }>(TAKE_OVER, {
        table: 'suppliers',
        reason: 'moved to my laptop',
      }),
      'takeOverTableLock',
      'alice taking over her own lock',
    );
    expect(moved.editor).toBe('alice');
    expect(BigInt(moved.token)).toBeGreaterThan(BigInt(first.token));

    const supplier = (id: string) => ({
      inserts: [
        {
          values: {
            id,
            name: `Supplier ${id}`,
            region_id: '10',
            currency_code: 'JPY',
            contract_start: '2026-01-01',
          },
        },
      ],
    });
    const stale = refusal(
      await alice.graphql(SAVE, {
        table: 'suppliers',
        token: first.token,
        changes: supplier('9002'),
      }),
    );
    expect(stale.code).toBe('LOCK_LOST');
    expect(stale.message).toContain('alice took over suppliers');
    expect(stale.message).toContain('moved to my laptop');
    expect(await rowCount('suppliers', '9002')).toBe(0);

    const saved = await aliceOnLaptop.graphql<{ saveRows: { saved: boolean } }>(SAVE, {
      table: 'suppliers',
      token: moved.token,
      changes: supplier('9003'),
    });
    expect(saved.data?.saveRows.saved).toBe(true);
    expect(await rowCount('suppliers', '9003')).toBe(1);
  });
});

describe('logout', () => {
  it('releases every lock of the user, recorded with reason logout', async () => {
    const bobElsewhere = await api.loginAs('bob');
    await acquire(bobElsewhere, 'price_lists');
    // Locks belong to the user, not the session: this one goes too.
    await acquire(bob, 'customers');
    const before = await readRegistry(database.prisma);
    expect(before.get('currencies')?.status).toBe('locked');
    expect(before.get('regions')?.status).toBe('locked');

    const loggedOut = await bobElsewhere.graphql<{ logout: boolean }>('mutation { logout }');
    expect(loggedOut.data?.logout).toBe(true);

    const after = await readRegistry(database.prisma);
    for (const table of ['price_lists', 'customers', 'currencies', 'regions']) {
      expect(after.get(table), table).toMatchObject({
        status: 'normal',
        editor: null,
        lockedBy: [],
      });
    }
    const { events } = await lockEvents({ user: 'bob', actions: ['release'] }, 0, 2);
    expect(events.map((event) => event.table).sort()).toEqual(['customers', 'price_lists']);
    for (const event of events) {
      expect(event).toMatchObject({ actor: 'bob', editor: 'bob', reason: 'logout' });
    }
    // The other session stays logged in.
    expect((await bob.graphql<{ me: { name: string } }>('{ me { name } }')).data?.me?.name).toBe(
      'bob',
    );
  });
});

describe('live updates', () => {
  it('end for a subscriber whose session has ended', async () => {
    await createUser(
      database.prisma,
      { username: 'dora', password: 'dora-password', role: 'viewer' },
      TEST_AUDIT,
    );
    const dora = await api.loginAs('dora', 'dora-password');
    const doraChanges = await subscribeLockChanges({
      url: api.url,
      headers: dora.headers,
      prisma: database.prisma,
    });
    const adminChanges = await subscribeLockChanges({
      url: api.url,
      headers: admin.headers,
      prisma: database.prisma,
    });
    try {
      expect((await dora.graphql<{ logout: boolean }>('mutation { logout }')).data?.logout).toBe(
        true,
      );
      const grant = await acquire(bob, 'regions');
      await adminChanges.waitFor((change) => change.token === grant.token);
      // Closed as forbidden when the logout is announced, before the change that follows it.
      await expect(doraChanges.waitFor(() => true)).rejects.toThrow(/socket closed 4403/);
      expect(doraChanges.received).toEqual([]);
    } finally {
      await doraChanges.close();
      await adminChanges.close();
    }
  });
});

describe('idempotency keys', () => {
  it('a retried acquisition acts once; the same key for other input is refused; keys are per caller', async () => {
    const key = 'acquire-categories-once';
    const before = await lockEvents({ table: 'categories' }, 0, 1);
    const first = await acquire(alice, 'categories', { key });
    const retry = await acquire(alice, 'categories', { key });
    expect(retry).toEqual(first);
    const after = await lockEvents({ table: 'categories' }, 0, 10);
    expect(after.total - before.total).toBe(1);
    expect(after.events[0]).toMatchObject({
      action: 'acquire',
      actor: 'alice',
      token: first.token,
    });

    const reused = refusal(await alice.graphql(ACQUIRE, { table: 'regions', key }));
    expect(reused.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect((await readRegistry(database.prisma)).get('regions')?.status).toBe('normal');

    const bobs = await acquire(bob, 'regions', { key });
    expect(bobs.editor).toBe('bob');
    expect(bobs.token).not.toBe(first.token);
  });

  it('parallel requests with one key act once', async () => {
    const key = 'acquire-currencies-parallel';
    const before = await lockEvents({ table: 'currencies', actions: ['acquire'] }, 0, 1);
    const responses = await Promise.all(
      Array.from({ length: 6 }, () =>
        alice.graphql<{ acquireTableLock: Grant }>(ACQUIRE, { table: 'currencies', key }),
      ),
    );
    const after = await lockEvents({ table: 'currencies', actions: ['acquire'] }, 0, 1);
    expect(after.total - before.total).toBe(1);
    const token = after.events[0]?.token;
    for (const response of responses) {
      // A duplicate that arrives while the first is still running may be turned away; it
      // never acts, and never answers with another acquisition.
      if (response.data?.acquireTableLock) {
        expect(response.data.acquireTableLock.token).toBe(token);
      } else {
        expect(refusal(response).code).toBe('LOCK_CONFLICT');
      }
    }
    expect((await acquire(alice, 'currencies', { key })).token).toBe(token);
  });

  it('a retried save writes once and answers the same', async () => {
    const grant = await acquire(alice, 'categories');
    const changes = { inserts: [{ values: { id: '7001', name: 'Saved once' } }] };
    const key = 'save-categories-once';
    const first = await alice.graphql(SAVE, {
      table: 'categories',
      token: grant.token,
      changes,
      key,
    });
    const retry = await alice.graphql(SAVE, {
      table: 'categories',
      token: grant.token,
      changes,
      key,
    });
    expect(first).toEqual({
      data: { saveRows: { saved: true, inserted: 1, updated: 0, deleted: 0 } },
    });
    expect(retry).toEqual(first);
    expect(await rowCount('categories', '7001')).toBe(1);
    const saves = await lockEvents({ table: 'categories', actions: ['save'] }, 0, 10);
    expect(saves.events.filter((event) => event.token === grant.token)).toHaveLength(1);
    expect(saves.events[0]).toMatchObject({ actor: 'alice', rowsChanged: 1, token: grant.token });

    const other = { inserts: [{ values: { id: '7002', name: 'Another' } }] };
    const reused = refusal(
      await alice.graphql(SAVE, { table: 'categories', token: grant.token, changes: other, key }),
    );
    expect(reused.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await rowCount('categories', '7002')).toBe(0);
  });
});

describe('audit history', () => {
  it('records a denied acquisition, naming the requester and the holder', async () => {
    await acquire(alice, 'customers');
    const changes = await subscribeLockChanges({
      url: api.url,
      headers: admin.headers,
      prisma: database.prisma,
    });
    try {
      const denied = refusal(await bob.graphql(ACQUIRE, { table: 'customers' }));
      expect(denied.code).toBe('LOCK_CONFLICT');
      expect(denied.message).toContain('being edited by alice');
      const { events } = await lockEvents({ table: 'customers' }, 0, 1);
      expect(events[0]).toMatchObject({ action: 'denied', actor: 'bob', editor: 'bob' });
      expect(events[0]?.reason).toContain('alice');

      // Denied attempts change nothing, so they are not announced: the release that follows
      // is the first thing the subscriber hears about customers (changes arrive in order).
      await forceReleaseAs(admin, 'customers', 'end of test');
      await changes.waitFor((change) => change.table === 'customers');
      expect(changes.received.filter((change) => change.table === 'customers')).toMatchObject([
        { action: 'force_release' },
      ]);
    } finally {
      await changes.close();
    }
  });

  it('records a denied acquisition made with an idempotency key too', async () => {
    await acquire(alice, 'price_lists');
    const denied = refusal(await bob.graphql(ACQUIRE, { table: 'price_lists', key: 'denied-k' }));
    expect(denied.code).toBe('LOCK_CONFLICT');
    const { events } = await lockEvents({ table: 'price_lists' }, 0, 1);
    expect(events[0]).toMatchObject({ action: 'denied', actor: 'bob' });
    await forceReleaseAs(admin, 'price_lists', 'end of test');
  });

  it('filters by table, user, action and time range, and pages newest first', async () => {
    const a = await api.withApiKey('audit-a', 'editor');
    const b = await api.withApiKey('audit-b', 'editor');
    const first = await acquire(a, 'warehouses');
    await releaseAs(a, 'warehouses', first.token);
    await acquire(b, 'warehouses');
    await forceReleaseAs(admin, 'warehouses', 'audit test');
    const second = await acquire(a, 'currencies');
    await releaseAs(a, 'currencies', second.token);

    const byA = await lockEvents({ user: 'key:audit-a' });
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
    const byB = await lockEvents({ user: 'key:audit-b' });
    expect(byB.events).toMatchObject([
      { action: 'force_release', actor: 'admin', editor: 'key:audit-b', reason: 'audit test' },
      { action: 'acquire', actor: 'key:audit-b' },
    ]);

    const aOnWarehouses = await lockEvents({ user: 'key:audit-a', table: 'warehouses' });
    expect(aOnWarehouses.events.map((event) => event.action)).toEqual(['release', 'acquire']);
    const onlyForced = await lockEvents({ user: 'key:audit-b', actions: ['force_release'] });
    expect(onlyForced).toMatchObject({ total: 1, events: [{ action: 'force_release' }] });
    const allForced = await lockEvents({ actions: ['force_release', 'expire'] }, 0, 200);
    expect(allForced.events.length).toBeGreaterThan(0);
    expect(
      allForced.events.every((event) => ['force_release', 'expire'].includes(event.action)),
    ).toBe(true);
    const onWarehouses = await lockEvents({ table: 'warehouses' }, 0, 200);
    expect(onWarehouses.events.every((event) => event.table === 'warehouses')).toBe(true);
    expect(onWarehouses.total).toBe(
      await database.prisma.lockEvent.count({ where: { tableName: 'warehouses' } }),
    );

    // From (inclusive) 1 ms after this test's first event, to (exclusive) its last: the first
    // and last are out, and the filter must agree with the timestamps it returns.
    const ours = [...byA.events, ...byB.events];
    const times = ours.map((event) => Date.parse(event.at));
    const from = new Date(Math.min(...times) + 1).toISOString();
    const to = new Date(Math.max(...times)).toISOString();
    const latest = await lockEvents({}, 0, 200);
    // Newest first by number, not as text: by now the ids cross a power of ten ('99' < '100').
    expect(latest.total).toBeGreaterThan(100);
    const latestIds = latest.events.map((event) => BigInt(event.id));
    for (const [i, id] of latestIds.entries()) {
      if (i > 0) expect(id).toBeLessThan(latestIds[i - 1] as bigint);
    }
    const expected = latest.events
      .filter((event) => event.at >= from && event.at < to)
      .map((event) => event.id);
    const inRange = await lockEvents({ from, to }, 0, 200);
    expect(inRange.events.map((event) => event.id)).toEqual(expected);
    expect(inRange.total).toBe(expected.length);
    expect(expected.length).toBeGreaterThan(0);
    const oldest = byA.events.at(-1) as LockEvent;
    const newest = byA.events[0] as LockEvent;
    expect(expected).not.toContain(oldest.id);
    expect(expected).not.toContain(newest.id);

    const pages = [];
    for (let offset = 0; offset < 4; offset++) {
      const page = await lockEvents({ user: 'key:audit-a' }, offset, 1);
      expect(page.total).toBe(4);
      pages.push(...page.events);
    }
    expect(pages).toEqual(byA.events);
    expect(await lockEvents({ user: 'key:audit-a' }, 4, 1)).toEqual({ total: 4, events: [] });
    const twoByTwo = [
      ...(await lockEvents({ user: 'key:audit-a' }, 0, 2)).events,
      ...(await lockEvents({ user: 'key:audit-a' }, 2, 2)).events,
    ];
    expect(twoByTwo).toEqual(byA.events);
  });
});

async function releaseAs(client: TestClient, table: string, token: string) {
  const response = await client.graphql(RELEASE, { table, token });
  if (response.errors) throw new Error(`release of ${table}: ${JSON.stringify(response.errors)}`);
}

async function forceReleaseAs(client: TestClient, table: string, reason: string) {
  const response = await client.graphql(FORCE_RELEASE, { table, reason });
  if (response.errors)
    throw new Error(`force-release of ${table}: ${JSON.stringify(response.errors)}`);
}
