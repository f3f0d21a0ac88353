import { createTestDatabase, resetLockRegistry, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  acquireByLegacyMutation,
  callLock,
  lock,
  releaseByLegacyMutation,
} from './support/lockApi';
import { readRegistry } from './support/registry';
import { startTestApi, type TestApi, type TestClient } from './support/testApi';

// The demo FK graph these tests lean on:
//   products → categories, currencies, suppliers      suppliers → currencies, regions
//   price_lists → currencies                          customers → regions
//   regions → regions (self)                          categories → categories (self)

let database: TestDatabase;
let api: TestApi;
let alice: TestClient;
let bob: TestClient;
let admin: TestClient;

beforeAll(async () => {
  database = await createTestDatabase();
  api = await startTestApi(database);
  [alice, bob, admin] = await Promise.all([
    api.loginAs('alice'),
    api.loginAs('bob'),
    api.loginAs('admin'),
  ]);
});
afterAll(async () => {
  await api.stop();
  await database.close();
});
beforeEach(() => resetLockRegistry(database.prisma));

const registry = () => readRegistry(database.prisma);

describe('UpdateTableStatusWithLock (the seed contract)', () => {
  it('moves a table normal → editing and records the editor', async () => {
    const before = await registry();
    const result = await acquireByLegacyMutation(alice, 'currencies');
    expect(result).toEqual({ lock_result: true, current_status: 'editing', fk_current_status: [] });
    const row = (await registry()).get('currencies');
    expect(row).toMatchObject({ status: 'editing', editor: 'alice', lockedBy: [] });
    expect(row?.version).toBe((before.get('currencies')?.version ?? 0) + 1);
  });

  it('locks the FK targets discovered from the catalog, with the table as holder', async () => {
    const result = await acquireByLegacyMutation(alice, 'products');
    expect(result.lock_result).toBe(true);
    expect(result.fk_current_status).toEqual([
      { table_name: 'categories', current_status: 'locked' },
      { table_name: 'currencies', current_status: 'locked' },
      { table_name: 'suppliers', current_status: 'locked' },
    ]);
    const rows = await registry();
    for (const name of ['categories', 'currencies', 'suppliers']) {
      expect(rows.get(name)).toMatchObject({ status: 'locked', lockedBy: ['products'] });
    }
    expect(rows.get('regions')?.status).toBe('normal');
  });

  it('locks the union of fk_table_name and the discovered targets, named ones first', async () => {
    const result = await lock(alice, {
      table_name: 'products',
      current_status: 'normal',
      target_status: 'editing',
      fk_table_name: ['warehouses', 'categories'],
      fk_current_status: 'normal',
      fk_target_status: 'locked',
      editor: 'alice',
    });
    expect(result.lock_result).toBe(true);
    expect(result.fk_current_status?.map((fk) => fk.table_name)).toEqual([
      'warehouses',
      'categories',
      'currencies',
      'suppliers',
    ]);
    expect((await registry()).get('warehouses')).toMatchObject({
      status: 'locked',
      lockedBy: ['products'],
    });
  });

  it('answers false and changes nothing when the table is not in current_status', async () => {
    await acquireByLegacyMutation(alice, 'products');
    const before = await registry();
    const result = await acquireByLegacyMutation(bob, 'products');
    expect(result).toEqual({
      lock_result: false,
      current_status: 'editing',
      fk_current_status: [
        { table_name: 'categories', current_status: 'locked' },
        { table_name: 'currencies', current_status: 'locked' },
        { table_name: 'suppliers', current_status: 'locked' },
      ],
    });
    expect(await registry()).toEqual(before);
  });

  it('is all or nothing: a failing FK condition leaves the table and the other FKs unchanged', async () => {
    await acquireByLegacyMutation(bob, 'suppliers');
    const before = await registry();
    const result = await acquireByLegacyMutation(alice, 'products');
    expect(result.lock_result).toBe(false);
    expect(result.current_status).toBe('normal');
    expect(result.fk_current_status).toContainEqual({
      table_name: 'suppliers',
      current_status: 'editing',
    });
    expect(await registry()).toEqual(before);
  });

  it('refuses to edit a table that is locked because a referencing table is being edited', async () => {
    await acquireByLegacyMutation(alice, 'products');
    const result = await acquireByLegacyMutation(bob, 'suppliers');
    expect(result).toMatchObject({ lock_result: false, current_status: 'locked' });
    expect((await registry()).get('suppliers')?.status).toBe('locked');
  });

  it('never waits: a row held by another transaction makes the call lose at once', async () => {
    const before = await registry();
    await database.prisma.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT 1 FROM tablelock.table_lock WHERE table_name = 'suppliers' FOR UPDATE`;
      // Were the call to wait for that row lock, it would wait for this very transaction.
      const result = await acquireByLegacyMutation(alice, 'products');
      expect(result).toMatchObject({ lock_result: false, current_status: 'normal' });
    });
    expect(await registry()).toEqual(before);
  });

  it('shares FK locks: two tables edited at once both hold their common target', async () => {
    expect((await acquireByLegacyMutation(alice, 'price_lists')).lock_result).toBe(true);
    expect((await acquireByLegacyMutation(bob, 'suppliers')).lock_result).toBe(true);
    expect((await registry()).get('currencies')).toMatchObject({
      status: 'locked',
      lockedBy: ['price_lists', 'suppliers'],
    });

    expect((await releaseByLegacyMutation(alice, 'price_lists')).lock_result).toBe(true);
    expect((await registry()).get('currencies')).toMatchObject({
      status: 'locked',
      lockedBy: ['suppliers'],
    });

    expect((await releaseByLegacyMutation(bob, 'suppliers')).lock_result).toBe(true);
    expect((await registry()).get('currencies')).toMatchObject({ status: 'normal', lockedBy: [] });
  });

  it('accepts locked → locked for FK tables, adding a holder', async () => {
    await acquireByLegacyMutation(alice, 'price_lists');
    const result = await lock(bob, {
      table_name: 'products',
      current_status: 'normal',
      target_status: 'editing',
      fk_table_name: ['currencies'],
      fk_current_status: 'locked',
      fk_target_status: 'locked',
      editor: 'bob',
    });
    expect(result.lock_result).toBe(true);
    expect((await registry()).get('currencies')?.lockedBy).toEqual(['price_lists', 'products']);
  });

  it('releases the table and every FK hold it has, and only its own', async () => {
    await acquireByLegacyMutation(alice, 'products');
    await acquireByLegacyMutation(bob, 'price_lists');
    const result = await lock(alice, {
      table_name: 'products',
      current_status: 'editing',
      target_status: 'normal',
      fk_table_name: ['categories', 'currencies', 'suppliers'],
      fk_current_status: 'locked',
      fk_target_status: 'normal',
      editor: 'alice',
    });
    expect(result).toEqual({
      lock_result: true,
      current_status: 'normal',
      fk_current_status: [
        { table_name: 'categories', current_status: 'normal' },
        { table_name: 'currencies', current_status: 'locked' },
        { table_name: 'suppliers', current_status: 'normal' },
      ],
    });
    const rows = await registry();
    expect(rows.get('products')).toMatchObject({ status: 'normal', editor: null });
    expect(rows.get('currencies')).toMatchObject({ status: 'locked', lockedBy: ['price_lists'] });
  });

  it('lets only the holder release: anyone else is FORBIDDEN and nothing changes', async () => {
    await acquireByLegacyMutation(alice, 'products');
    const before = await registry();
    const response = await callLock(bob, {
      table_name: 'products',
      current_status: 'editing',
      target_status: 'normal',
      editor: 'bob',
    });
    expect(response.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(response.errors?.[0]?.message).toContain('alice');
    expect(await registry()).toEqual(before);
  });

  it('answers false to a release of a table that is not being edited', async () => {
    const result = await releaseByLegacyMutation(alice, 'products');
    expect(result).toMatchObject({ lock_result: false, current_status: 'normal' });
  });

  it('answers false to a release naming an FK table this table does not hold', async () => {
    await acquireByLegacyMutation(alice, 'price_lists');
    const before = await registry();
    const result = await lock(alice, {
      table_name: 'price_lists',
      current_status: 'editing',
      target_status: 'normal',
      fk_table_name: ['regions'],
      fk_current_status: 'locked',
      fk_target_status: 'normal',
      editor: 'alice',
    });
    expect(result.lock_result).toBe(false);
    expect(await registry()).toEqual(before);
  });

  it('ignores self-references: a self-referencing table is not locked by itself', async () => {
    const result = await acquireByLegacyMutation(alice, 'regions');
    expect(result).toEqual({ lock_result: true, current_status: 'editing', fk_current_status: [] });
    expect((await registry()).get('regions')).toMatchObject({ status: 'editing', lockedBy: [] });
  });

  it('is a TABLE_NOT_FOUND error for an unknown table or FK table, changing nothing', async () => {
    const before = await registry();
    const unknownTable = await callLock(alice, {
      table_name: 'no_such_table',
      current_status: 'normal',
      target_status: 'editing',
      editor: 'alice',
    });
    expect(unknownTable.errors?.[0]?.extensions?.code).toBe('TABLE_NOT_FOUND');
    const unknownFk = await callLock(alice, {
      table_name: 'products',
      current_status: 'normal',
      target_status: 'editing',
      fk_table_name: ['no_such_table'],
      fk_current_status: 'normal',
      fk_target_status: 'locked',
      editor: 'alice',
    });
    expect(unknownFk.errors?.[0]?.extensions?.code).toBe('TABLE_NOT_FOUND');
    expect(await registry()).toEqual(before);
  });

  it.each([
    ['normal', 'locked'],
    ['locked', 'normal'],
    ['editing', 'editing'],
    ['normal', 'normal'],
    ['editing', 'locked'],
  ] as const)('is an INVALID_TRANSITION error for the table moving %s → %s', async (from, to) => {
    const before = await registry();
    const response = await callLock(alice, {
      table_name: 'products',
      current_status: from,
      target_status: to,
      editor: 'alice',
    });
    expect(response.errors?.[0]?.extensions?.code).toBe('INVALID_TRANSITION');
    expect(await registry()).toEqual(before);
  });

  it.each([
    ['normal', 'editing', 'locked', 'normal'],
    ['normal', 'editing', 'normal', 'editing'],
    ['editing', 'normal', 'normal', 'locked'],
  ] as const)(
    'is an INVALID_TRANSITION error when the table moves %s → %s and its FK tables %s → %s',
    async (from, to, fkFrom, fkTo) => {
      const response = await callLock(alice, {
        table_name: 'products',
        current_status: from,
        target_status: to,
        fk_table_name: ['categories'],
        fk_current_status: fkFrom,
        fk_target_status: fkTo,
        editor: 'alice',
      });
      expect(response.errors?.[0]?.extensions?.code).toBe('INVALID_TRANSITION');
    },
  );

  it('shows holders in the tables query: locked_by is the first, lockedBy all of them', async () => {
    await acquireByLegacyMutation(bob, 'suppliers');
    await acquireByLegacyMutation(alice, 'price_lists');
    const response = await alice.graphql<{
      table: { status: string; editor: string; locked_by: string; lockedBy: string[] };
    }>('{ table(name: "currencies") { status editor locked_by lockedBy } }');
    expect(response.data?.table).toEqual({
      status: 'locked',
      editor: 'alice',
      locked_by: 'price_lists',
      lockedBy: ['price_lists', 'suppliers'],
    });
  });
});

describe('syncTableRegistry mutation', () => {
  it('re-reads the master schema and reports what changed', async () => {
    await database.prisma.$executeRawUnsafe(
      'CREATE TABLE master.units (code text PRIMARY KEY, name text NOT NULL)',
    );
    const response = await admin.graphql<{
      syncTableRegistry: { added: string[]; removed: string[]; referencesChanged: string[] };
    }>('mutation { syncTableRegistry { added removed referencesChanged } }');
    expect(response.data?.syncTableRegistry).toEqual({
      added: ['units'],
      removed: [],
      referencesChanged: [],
    });
    expect((await registry()).get('units')?.status).toBe('normal');
  });
});
