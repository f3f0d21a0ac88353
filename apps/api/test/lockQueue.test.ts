import { lockInvariantViolations } from '@tablelock/lock';
import { describe, expect, it } from 'vitest';
import { subscribeLockChanges } from './support/lockChanges';
import {
  acquireTableLockAs,
  acquireTableLockMutation,
  acquireTableLocksMutation,
  granted,
  releaseTableLockAs,
  tableLineQuery,
} from './support/lockOperations';
import { joinLine, type QueuePlaces } from './support/queuePlaces';
import { readRegistry } from './support/registry';
import { useSignedInApi } from './support/signedInApi';
import { execute, startTestApi, type TestClient } from './support/testApi';

const signedIn = useSignedInApi();

const watchChanges = (table?: string) =>
  subscribeLockChanges({
    url: signedIn.api.url,
    headers: signedIn.admin.headers,
    prisma: signedIn.database.prisma,
    ...(table ? { table } : {}),
  });

const lineSeenBy = async (client: TestClient, table: string) =>
  (await execute(client, tableLineQuery, { name: table })).data?.table;

const waitersInDatabase = () => signedIn.database.prisma.lockWaiter.findMany();

describe('waiting in line for a table (acquireTableLock with wait)', () => {
  it('gets the table when its holder releases it; the history has queued, dequeued and acquire', async () => {
    const { alice, bob } = signedIn;
    // Listening before bob's acquisition: its announcement reaches the API a moment after his
    // answer, so a subscriber opened after that answer may or may not still hear it.
    const changes = await watchChanges('products');
    try {
      const held = await acquireTableLockAs(bob, 'products');
      await changes.waitFor((change) => change.action === 'acquire' && change.editor === 'bob');
      const waiting = execute(alice, acquireTableLockMutation, { table: 'products', wait: 30 });
      await changes.waitFor((change) => change.action === 'queued' && change.editor === 'alice');
      const line = await lineSeenBy(bob, 'products');
      expect(line?.waiters).toMatchObject([{ editor: 'alice', tables: ['products'] }]);

      await releaseTableLockAs(bob, 'products', held.token);
      const grant = granted(await waiting, 'acquireTableLock', 'alice waiting');
      expect(grant.editor).toBe('alice');
      expect(BigInt(grant.token)).toBeGreaterThan(BigInt(held.token));
      expect(
        await changes.waitFor(
          (change) => change.action === 'dequeued' && change.editor === 'alice',
        ),
      ).toMatchObject({ reason: 'acquired' });
      expect(await waitersInDatabase()).toEqual([]);
      expect(changes.received.map((change) => change.action)).toEqual([
        'acquire',
        'queued',
        'release',
        'acquire',
        'dequeued',
      ]);
    } finally {
      await changes.close();
    }
  });

  it('fails with LOCK_WAIT_TIMEOUT after the wait, naming who holds it, and leaves the line', async () => {
    const { alice, bob } = signedIn;
    await acquireTableLockAs(bob, 'products');
    const changes = await watchChanges('products');
    try {
      const response = await execute(alice, acquireTableLockMutation, {
        table: 'products',
        wait: 1,
      });
      expect(response.data).toBeNull();
      const [error] = response.errors ?? [];
      expect(error?.extensions).toMatchObject({
        code: 'LOCK_WAIT_TIMEOUT',
        editBlock: 'beingEdited',
        blockers: [{ table: 'products', editor: 'bob' }],
      });
      expect(error?.message).toContain('bob');
      expect(await changes.waitFor((change) => change.action === 'dequeued')).toMatchObject({
        editor: 'alice',
        reason: 'timed out',
      });
      expect(await waitersInDatabase()).toEqual([]);
      expect((await readRegistry(signedIn.database.prisma)).get('products')?.editor).toBe('bob');
    } finally {
      await changes.close();
    }
  });

  it('leaves the line at once when its client disconnects', async () => {
    const { alice, bob, api } = signedIn;
    const held = await acquireTableLockAs(bob, 'products');
    const changes = await watchChanges('products');
    try {
      const client = new AbortController();
      const request = fetch(`${api.url}/graphql`, {
        method: 'POST',
        headers: { ...alice.headers, 'content-type': 'application/json' },
        body: JSON.stringify({
          query: acquireTableLockMutation.toString(),
          variables: { table: 'products', wait: 60 },
        }),
        signal: client.signal,
      }).catch((error: unknown) => error);
      await changes.waitFor((change) => change.action === 'queued');
      client.abort();
      await request;
      expect(await changes.waitFor((change) => change.action === 'dequeued')).toMatchObject({
        editor: 'alice',
        reason: 'left',
      });
      expect(await waitersInDatabase()).toEqual([]);

      // Nobody is left to take it when it is released.
      await releaseTableLockAs(bob, 'products', held.token);
      expect((await readRegistry(signedIn.database.prisma)).get('products')?.status).toBe('normal');
    } finally {
      await changes.close();
    }
  });

  it('rejects a wait out of range with BAD_USER_INPUT, changing nothing', async () => {
    const response = await execute(signedIn.alice, acquireTableLockMutation, {
      table: 'products',
      wait: 3601,
    });
    expect(response.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(await waitersInDatabase()).toEqual([]);
    expect((await readRegistry(signedIn.database.prisma)).get('products')?.status).toBe('normal');
  });
});

describe('"notify me when free" (the waitForTable subscription)', () => {
  it('holds the table for the first in line when it is free: others are refused until they take it', async () => {
    const { alice, bob, admin, api } = signedIn;
    const held = await acquireTableLockAs(bob, 'products');
    const line = joinLine(api.url, alice.headers, 'products');
    try {
      expect(await line.waitFor((place) => place.state === 'waiting')).toMatchObject({
        position: 1,
        ahead: [],
      });
      await releaseTableLockAs(bob, 'products', held.token);
      const turn = await line.waitFor((place) => place.state === 'yourTurn');
      expect(new Date(turn.reservedUntil ?? 0).getTime()).toBeGreaterThan(Date.now());

      const refused = await execute(admin, acquireTableLockMutation, { table: 'products' });
      expect(refused.errors?.[0]?.extensions).toMatchObject({
        code: 'LOCK_CONFLICT',
        editBlock: 'queued',
        blockers: [{ table: 'products', editor: 'alice' }],
      });
      expect((await lineSeenBy(admin, 'products'))?.editBlock).toEqual({
        kind: 'queued',
        blockers: [{ table: 'products', editor: 'alice' }],
      });
      expect((await lineSeenBy(alice, 'products'))?.editBlock).toBeNull();

      const grant = await acquireTableLockAs(alice, 'products');
      expect(grant.editor).toBe('alice');
      await line.waitFor((place) => place.state === 'acquired');
      await line.waitForEnd();
      expect(await waitersInDatabase()).toEqual([]);
    } finally {
      await line.close();
    }
  });

  it('tells the second in line its place, and moves it up when the first leaves', async () => {
    const { alice, bob, admin, api } = signedIn;
    await acquireTableLockAs(bob, 'products');
    const first = joinLine(api.url, alice.headers, 'products');
    let second: QueuePlaces | undefined;
    try {
      // Alice is in line before admin joins: two sockets opened at once may arrive in any order.
      await first.waitFor((place) => place.state === 'waiting');
      second = joinLine(api.url, admin.headers, 'products');
      expect(
        await second.waitFor((place) => place.state === 'waiting' && place.position === 2),
      ).toMatchObject({ ahead: [{ editor: 'alice' }] });
      expect((await lineSeenBy(bob, 'products'))?.waiters.map((w) => w.editor)).toEqual([
        'alice',
        'admin',
      ]);

      await first.close();
      await second.waitFor((place) => place.state === 'waiting' && place.position === 1);
      expect((await waitersInDatabase()).map((waiter) => waiter.editor)).toEqual(['admin']);
    } finally {
      await first.close();
      await second?.close();
    }
  });

  it('ends the turn when the reservation runs out unused; the table is then free for anyone', async () => {
    const { bob, admin } = signedIn;
    const shortTurns = await startTestApi(signedIn.database, { queueReservationSeconds: 1 });
    try {
      const alice = await shortTurns.loginAs('alice');
      const held = await acquireTableLockAs(bob, 'products');
      const line = joinLine(shortTurns.url, alice.headers, 'products');
      try {
        await line.waitFor((place) => place.state === 'waiting');
        await releaseTableLockAs(bob, 'products', held.token);
        await line.waitFor((place) => place.state === 'yourTurn');
        await line.waitFor((place) => place.state === 'expired', 5_000);
        await line.waitForEnd();
        expect(await waitersInDatabase()).toEqual([]);
        expect((await acquireTableLockAs(admin, 'products')).editor).toBe('admin');
      } finally {
        await line.close();
      }
    } finally {
      await shortTurns.stop();
    }
  });

  it('refuses viewers: they cannot edit, so they cannot wait to', async () => {
    const carol = await signedIn.api.loginAs('carol');
    const line = joinLine(signedIn.api.url, carol.headers, 'products');
    try {
      await expect(line.waitFor(() => true, 3_000)).rejects.toThrow(/FORBIDDEN/);
      expect(await waitersInDatabase()).toEqual([]);
    } finally {
      await line.close();
    }
  });
});

describe('several tables at once (acquireTableLocks)', () => {
  it('takes all of them or none: one busy table leaves the others untouched', async () => {
    const { alice, bob } = signedIn;
    await acquireTableLockAs(bob, 'warehouses');
    const refused = await execute(alice, acquireTableLocksMutation, {
      tables: ['customers', 'warehouses'],
    });
    expect(refused.errors?.[0]?.extensions).toMatchObject({
      code: 'LOCK_CONFLICT',
      blockers: [{ table: 'warehouses', editor: 'bob' }],
    });
    const registry = await readRegistry(signedIn.database.prisma);
    expect(registry.get('customers')?.status).toBe('normal');
    expect(registry.get('regions')?.lockedBy).toEqual(['warehouses']);
  });

  it('gives each table its own token; a referenced table among them is edited, not locked', async () => {
    const { alice } = signedIn;
    const response = await execute(alice, acquireTableLocksMutation, {
      tables: ['products', 'categories'],
    });
    const grants = response.data?.acquireTableLocks ?? [];
    expect(response.errors).toBeUndefined();
    expect(grants.map((grant) => grant.table)).toEqual(['categories', 'products']);
    expect(new Set(grants.map((grant) => grant.token)).size).toBe(2);
    const products = grants.find((grant) => grant.table === 'products');
    expect(products?.lockedTables).toEqual(['currencies', 'suppliers']);

    const prisma = signedIn.database.prisma;
    let registry = await readRegistry(prisma);
    expect(registry.get('categories')).toMatchObject({ status: 'editing', editor: 'alice' });
    expect(lockInvariantViolations(registry)).toEqual([]);

    // Finishing the referenced table first leaves it locked for the one still being edited.
    const categories = grants.find((grant) => grant.table === 'categories');
    await releaseTableLockAs(alice, 'categories', categories?.token ?? '');
    registry = await readRegistry(prisma);
    expect(registry.get('categories')).toMatchObject({ status: 'locked', lockedBy: ['products'] });
    expect(lockInvariantViolations(registry)).toEqual([]);
    await releaseTableLockAs(alice, 'products', products?.token ?? '');
    registry = await readRegistry(prisma);
    expect([...registry.values()].filter((row) => row.status !== 'normal')).toEqual([]);
  });

  it('waits for all of them with wait', async () => {
    const { alice, bob } = signedIn;
    const held = await acquireTableLockAs(bob, 'warehouses');
    const changes = await watchChanges();
    try {
      const waiting = execute(alice, acquireTableLocksMutation, {
        tables: ['customers', 'warehouses'],
        wait: 30,
      });
      await changes.waitFor(
        (change) => change.action === 'queued' && change.table === 'warehouses',
      );
      expect((await readRegistry(signedIn.database.prisma)).get('customers')?.status).toBe(
        'normal',
      );
      await releaseTableLockAs(bob, 'warehouses', held.token);
      const response = await waiting;
      expect(response.errors).toBeUndefined();
      expect(response.data?.acquireTableLocks.map((grant) => grant.editor)).toEqual([
        'alice',
        'alice',
      ]);
    } finally {
      await changes.close();
    }
  });

  it('has exactly one winner when overlapping sets race, and the loser holds nothing', async () => {
    const { alice, bob, database } = signedIn;
    for (let round = 0; round < 10; round++) {
      const [forAlice, forBob] = await Promise.all([
        execute(alice, acquireTableLocksMutation, { tables: ['customers', 'warehouses'] }),
        execute(bob, acquireTableLocksMutation, { tables: ['warehouses', 'suppliers'] }),
      ]);
      const winners = [forAlice, forBob].filter((response) => response.data?.acquireTableLocks);
      expect(winners, `round ${round}`).toHaveLength(1);
      const registry = await readRegistry(database.prisma);
      expect(lockInvariantViolations(registry)).toEqual([]);
      const editors = new Set(
        [...registry.values()].flatMap((row) => (row.status === 'editing' ? [row.editor] : [])),
      );
      expect(editors.size, `round ${round}`).toBe(1);
      const [winner] = winners;
      const client = winner === forAlice ? alice : bob;
      for (const grant of winner?.data?.acquireTableLocks ?? []) {
        await releaseTableLockAs(client, grant.table, grant.token);
      }
    }
  });
});
