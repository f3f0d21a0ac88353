import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { poll, resetLockRegistry } from '@tablelock/test-support';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createTablelockClient,
  type RowChanges,
  type SaveResult,
  type TablelockClient,
  TablelockError,
} from '../src';
import {
  type ClientTestApi,
  SHORT_LEASE_SECONDS,
  startClientTestApi,
} from './support/clientTestApi';
import { eventsOf, lockOf, waitingInLine } from './support/lockRecords';
import {
  acquireTableLockMutation,
  forceReleaseMutation,
  releaseTableLockMutation,
  takeOverTableLockMutation,
} from './support/testOperations';

const HOLD_LOCK = new URL('./support/holdLock.mjs', import.meta.url).pathname;
/** A lease that outlasts a restart of the API on a busy machine. */
const RESTART_PROOF_LEASE_SECONDS = 60;
/**
 * Above twice the API's wait for a busy lock row (5 s, waitingForLocks): a renewal that waits
 * out one row held that long (a starved API, on a busy machine) must not outlast the lease, as
 * it did with the 5 s lease (LOCK_CONFLICT naming the API's own connection, then LOCK_LOST).
 */
const RENEWING_LEASE_SECONDS = 12;

let api: ClientTestApi;
let etlKey: string;
let adminKey: string;
let rivalKey: string;
let client: TablelockClient;

beforeAll(async () => {
  api = await startClientTestApi();
  etlKey = await api.newKey('etl', 'editor');
  adminKey = await api.newKey('ops', 'admin');
  rivalKey = await api.newKey('rival', 'editor');
  client = createTablelockClient({ url: api.url, apiKey: etlKey });
});
afterAll(() => api?.stop());
beforeEach(async () => {
  await api.liveSubscriptionsReach(0);
  await resetLockRegistry(api.database.prisma);
  await api.database.prisma.lockEvent.deleteMany();
});

/** A new currency: a row of the table without foreign keys that the tests save to. */
const newCurrency = (code: string): RowChanges => ({
  inserts: [{ values: { code, name: `Test ${code}`, minor_units: '2', active: 'true' } }],
});

/** How many currencies have `code`: 1 once a save of newCurrency(code) landed. */
async function currenciesCoded(code: string): Promise<number> {
  const [{ count } = { count: 0 }] = await api.database.prisma.$queryRaw<{ count: number }[]>`
    SELECT count(*)::int AS count FROM master.currencies WHERE code = ${code}`;
  return count;
}

/** Resolves with the signal's reason once it aborts. */
const abortOf = (signal: AbortSignal) =>
  signal.aborted
    ? Promise.resolve(signal.reason as unknown)
    : new Promise<unknown>((resolve) =>
        signal.addEventListener('abort', () => resolve(signal.reason), { once: true }),
      );

describe('withTableLock', () => {
  it('holds the lock past its first lease by renewing it, saves behind its token, releases it on return', async () => {
    const result = await client.withTableLock(
      'currencies',
      async (lock) => {
        const acquired = await lockOf(api.database, 'currencies');
        expect(acquired).toMatchObject({
          status: 'editing',
          editor: 'key:etl',
          token: lock.tokens.currencies,
        });
        const firstLeaseEnd = acquired.leaseExpiresAt?.getTime() ?? 0;
        // Renewals every third of the lease move its end; the first lease would have run out by now.
        const leaseEnds = new Set<number>();
        await poll('three renewals, past the first lease', 30_000, async () => {
          const { leaseExpiresAt } = await lockOf(api.database, 'currencies');
          leaseEnds.add(leaseExpiresAt?.getTime() ?? 0);
          return leaseEnds.size > 3 && Date.now() > firstLeaseEnd + 1_000 ? true : undefined;
        });
        expect(await lockOf(api.database, 'currencies')).toMatchObject({
          status: 'editing',
          token: lock.tokens.currencies,
        });
        expect(await lock.saveRows('currencies', newCurrency('XTA'))).toEqual({
          saved: true,
          inserted: 1,
          updated: 0,
          deleted: 0,
          rowErrors: [],
        });
        // The reason, not only that it aborted: a failure says which renewal or live update gave up.
        expect(lock.signal.reason).toBeUndefined();
        return 'done';
      },
      { leaseSeconds: RENEWING_LEASE_SECONDS },
    );

    expect(result).toBe('done');
    expect(await currenciesCoded('XTA')).toBe(1);
    expect(await lockOf(api.database, 'currencies')).toMatchObject({
      status: 'normal',
      editor: null,
    });
    const events = await eventsOf(api.database, 'currencies');
    const token = events[0]?.token;
    expect(events).toEqual([
      { action: 'acquire', actor: 'key:etl', token, reason: null },
      { action: 'save', actor: 'key:etl', token, reason: null },
      { action: 'release', actor: 'key:etl', token, reason: null },
    ]);
  });

  it('an admin force-releases it mid-work: lock.signal aborts as announced live, and a later save does not land', async () => {
    const outcome = client.withTableLock(
      'currencies',
      async (lock) => {
        // graphql-ws does not say when a subscription listens; the API's gauge does.
        await api.liveSubscriptionsReach(1);
        await api.send(adminKey, forceReleaseMutation, {
          table: 'currencies',
          reason: 'quarter close',
        });
        const reason = await abortOf(lock.signal);
        // Only the live announcement names the action; the next renewal is 20 s away.
        expect(reason).toBeInstanceOf(TablelockError);
        expect(reason).toMatchObject({
          code: 'LOCK_LOST',
          message:
            'You no longer hold the lock: key:ops force-released your lock on currencies (reason: quarter close).',
          extensions: { action: 'force_release', actor: 'key:ops', reason: 'quarter close' },
        });
        await expect(lock.saveRows('currencies', newCurrency('XTB'))).rejects.toMatchObject({
          code: 'LOCK_LOST',
        });
        return 'carried on regardless';
      },
      { leaseSeconds: 60 },
    );

    await expect(outcome).rejects.toMatchObject({ code: 'LOCK_LOST' });
    expect(await currenciesCoded('XTB')).toBe(0);
    expect((await eventsOf(api.database, 'currencies')).map((event) => event.action)).toEqual([
      'acquire',
      'force_release',
    ]);
  });

  it('an admin takes it over: lock.signal aborts, naming who took it and why', async () => {
    const outcome = client.withTableLock(
      'categories',
      async (lock) => {
        await api.liveSubscriptionsReach(1);
        await api.send(adminKey, takeOverTableLockMutation, {
          table: 'categories',
          reason: 'fixing a typo',
        });
        expect(await abortOf(lock.signal)).toMatchObject({
          code: 'LOCK_LOST',
          message:
            'You no longer hold the lock: key:ops took over categories (reason: fixing a typo).',
        });
      },
      { leaseSeconds: 60 },
    );
    await expect(outcome).rejects.toMatchObject({ code: 'LOCK_LOST' });
    expect(await lockOf(api.database, 'categories')).toMatchObject({
      status: 'editing',
      editor: 'key:ops',
    });
  });

  it('a lock that ended unannounced is found lost by the next renewal', async () => {
    const outcome = client.withTableLock(
      'regions',
      async (lock) => {
        // Ended in the database alone, as if its announcement had been missed.
        await resetLockRegistry(api.database.prisma);
        const reason = await abortOf(lock.signal);
        expect(reason).toMatchObject({
          code: 'LOCK_LOST',
          message: `You no longer hold the lock: lock ${lock.tokens.regions} is not a current lock on regions.`,
        });
      },
      { leaseSeconds: SHORT_LEASE_SECONDS },
    );
    await expect(outcome).rejects.toMatchObject({ code: 'LOCK_LOST' });
  });

  it('releases the lock when the work throws, and rejects with the work’s error', async () => {
    const failure = new Error('the import file is corrupt');
    await expect(
      client.withTableLock('categories', async () => {
        expect(await lockOf(api.database, 'categories')).toMatchObject({ status: 'editing' });
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await lockOf(api.database, 'categories')).toMatchObject({ status: 'normal' });
    expect((await eventsOf(api.database, 'categories')).map((event) => event.action)).toEqual([
      'acquire',
      'release',
    ]);
  });

  it('a busy table: LOCK_CONFLICT at once, naming who is in the way, and the work never runs', async () => {
    await api.send(rivalKey, acquireTableLockMutation, { table: 'regions' });
    let ran = false;
    const outcome = client.withTableLock('regions', async () => {
      ran = true;
    });
    await expect(outcome).rejects.toBeInstanceOf(TablelockError);
    await expect(outcome).rejects.toMatchObject({
      code: 'LOCK_CONFLICT',
      extensions: { blockers: [{ table: 'regions', editor: 'key:rival' }] },
    });
    expect(ran).toBe(false);
  });

  it('a save sent while the API restarts is retried until it lands, and the lock is kept', async () => {
    await client.withTableLock(
      'currencies',
      async (lock) => {
        let saving: Promise<SaveResult> | undefined;
        await api.restart(() => {
          saving = lock.saveRows('currencies', newCurrency('XTC'));
        });
        expect(await saving).toMatchObject({ saved: true, inserted: 1 });
        // The reason, not only that it aborted: a failure says which renewal or live update gave up.
        expect(lock.signal.reason).toBeUndefined();
        expect(await lockOf(api.database, 'currencies')).toMatchObject({
          status: 'editing',
          token: lock.tokens.currencies,
        });
      },
      { leaseSeconds: RESTART_PROOF_LEASE_SECONDS },
    );
    expect(await currenciesCoded('XTC')).toBe(1);
    expect(await lockOf(api.database, 'currencies')).toMatchObject({ status: 'normal' });
  });
});

describe('withTableLock: waiting, several tables', () => {
  it('with wait, waits in line while a table is busy and works once its holder releases it', async () => {
    const rival = await api.send(rivalKey, acquireTableLockMutation, { table: 'regions' });
    const work = client.withTableLock('regions', async (lock) => lock.tokens.regions, { wait: 30 });
    expect(await waitingInLine(api.database, 'key:etl')).toEqual(['regions']);

    await api.send(rivalKey, releaseTableLockMutation, {
      table: 'regions',
      token: rival.acquireTableLock.token,
    });
    const token = await work;
    expect(BigInt(token ?? 0)).toBeGreaterThan(BigInt(rival.acquireTableLock.token));
    expect((await eventsOf(api.database, 'regions')).map((event) => event.action)).toEqual([
      'acquire',
      'queued',
      'release',
      'acquire',
      'dequeued',
      'release',
    ]);
  });

  it('with wait, gives up after it: LOCK_WAIT_TIMEOUT, naming who held the table', async () => {
    await api.send(rivalKey, acquireTableLockMutation, { table: 'regions' });
    let ran = false;
    const outcome = client.withTableLock(
      'regions',
      async () => {
        ran = true;
      },
      { wait: 1 },
    );
    await expect(outcome).rejects.toMatchObject({
      code: 'LOCK_WAIT_TIMEOUT',
      message: 'Waited 1 s; still in the way: regions is being edited by key:rival.',
      extensions: { blockers: [{ table: 'regions', editor: 'key:rival' }] },
    });
    expect(ran).toBe(false);
  });

  it('several tables: all held under tokens of their own, saves go behind the right one, all released', async () => {
    await client.withTableLock(['currencies', 'categories'], async (lock) => {
      const { currencies, categories } = lock.tokens;
      expect(currencies).toBeDefined();
      expect(categories).not.toBe(currencies);
      expect(await lockOf(api.database, 'currencies')).toMatchObject({
        status: 'editing',
        token: currencies,
      });
      expect(await lockOf(api.database, 'categories')).toMatchObject({
        status: 'editing',
        token: categories,
      });
      expect(await lock.saveRows('currencies', newCurrency('XTD'))).toMatchObject({ saved: true });
      await expect(lock.saveRows('regions', newCurrency('XTE'))).rejects.toThrow(
        'regions is not held by this lock (categories, currencies).',
      );
    });
    expect(await currenciesCoded('XTD')).toBe(1);
    for (const table of ['currencies', 'categories']) {
      expect((await eventsOf(api.database, table)).map((event) => event.action)).toEqual([
        'acquire',
        ...(table === 'currencies' ? ['save'] : []),
        'release',
      ]);
    }
  });

  it('several tables, all or nothing: one busy, none taken', async () => {
    await api.send(rivalKey, acquireTableLockMutation, { table: 'regions' });
    await expect(
      client.withTableLock(['currencies', 'regions'], async () => {}),
    ).rejects.toMatchObject({ code: 'LOCK_CONFLICT' });
    expect(await lockOf(api.database, 'currencies')).toMatchObject({ status: 'normal' });
  });

  it('several tables, one force-released: lock.signal aborts, and the other is released at the end', async () => {
    const outcome = client.withTableLock(
      ['currencies', 'categories'],
      async (lock) => {
        await api.liveSubscriptionsReach(1);
        await api.send(adminKey, forceReleaseMutation, { table: 'categories', reason: 'audit' });
        expect(await abortOf(lock.signal)).toMatchObject({
          code: 'LOCK_LOST',
          extensions: { table: 'categories', action: 'force_release' },
        });
      },
      { leaseSeconds: 60 },
    );
    await expect(outcome).rejects.toMatchObject({ code: 'LOCK_LOST' });
    expect(await lockOf(api.database, 'currencies')).toMatchObject({ status: 'normal' });
    expect((await eventsOf(api.database, 'currencies')).map((event) => event.action)).toEqual([
      'acquire',
      'release',
    ]);
  });
});

describe('the row history', () => {
  it('reads the changes a save made and a row’s history, naming the API key that saved', async () => {
    await client.withTableLock('currencies', (lock) =>
      lock.saveRows('currencies', newCurrency('XHS')),
    );
    const page = await client.tableChanges('currencies', { first: 1 });
    expect(page.changes).toMatchObject([{ kind: 'save', actor: 'key:etl', rowsInserted: 1 }]);
    const history = await client.rowHistory('currencies', { code: 'XHS' });
    expect(history).toMatchObject({
      rows: [{ operation: 'insert', newValues: { code: 'XHS', name: 'Test XHS' } }],
      endCursor: null,
    });
    await expect(
      client.tableChanges('currencies', { after: 'not a cursor' }),
    ).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
  });
});

describe('a process holding a lock with withTableLock', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'gets %s: the lock is released and the process ends by the signal, as it would have',
    async (signal) => {
      const holder = spawn(process.execPath, [HOLD_LOCK, api.url, etlKey, 'categories'], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      try {
        const [line] = (await once(createInterface({ input: holder.stdout }), 'line')) as [string];
        const { token } = JSON.parse(line) as { token: string };
        expect(await lockOf(api.database, 'categories')).toMatchObject({
          status: 'editing',
          token,
        });

        const exited = once(holder, 'exit');
        holder.kill(signal);
        expect(await exited).toEqual([null, signal]);
        expect(await lockOf(api.database, 'categories')).toMatchObject({ status: 'normal' });
        expect((await eventsOf(api.database, 'categories')).at(-1)).toEqual({
          action: 'release',
          actor: 'key:etl',
          token,
          reason: null,
        });
      } finally {
        if (holder.exitCode === null && holder.signalCode === null) holder.kill('SIGKILL');
      }
    },
  );
});
