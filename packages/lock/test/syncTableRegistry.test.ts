import { createPrismaClient } from '@tablelock/db';
import { createTestDatabase, MASTER_SCHEMA, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RegistrySync, syncTableRegistry, updateTableStatusWithLock } from '../src';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const registryRow = (tableName: string) =>
  database.prisma.tableLock.findUnique({ where: { tableName } });

describe('syncTableRegistry', () => {
  it('has a row for every base table of the master schema, with its FK targets', async () => {
    const tables = await database.prisma.$queryRaw<{ table_name: string }[]>`
      SELECT table_name::text FROM information_schema.tables
      WHERE table_schema = ${MASTER_SCHEMA} AND table_type = 'BASE TABLE' ORDER BY table_name`;
    const rows = await database.prisma.tableLock.findMany({ orderBy: { tableName: 'asc' } });
    expect(rows.map((row) => row.tableName)).toEqual(tables.map((table) => table.table_name));
    expect(rows.find((row) => row.tableName === 'products')?.references).toEqual([
      'categories',
      'currencies',
      'suppliers',
    ]);
    // Self-references are left out.
    expect(rows.find((row) => row.tableName === 'regions')?.references).toEqual([]);
  });

  it('is a no-op when nothing changed', async () => {
    expect(await syncTableRegistry(database.prisma, MASTER_SCHEMA)).toEqual({
      added: [],
      removed: [],
      referencesChanged: [],
      leftOut: [],
    });
  });

  it('picks up a new table, a new foreign key and a dropped table (with its FK holds)', async () => {
    await database.prisma.$executeRawUnsafe(`
      CREATE TABLE master.promotions (
        id integer PRIMARY KEY,
        region_id integer NOT NULL REFERENCES master.regions (id),
        parent_id integer REFERENCES master.promotions (id)
      )`);
    expect(await syncTableRegistry(database.prisma, MASTER_SCHEMA)).toEqual({
      added: ['promotions'],
      removed: [],
      referencesChanged: [],
      leftOut: [],
    });
    expect(await registryRow('promotions')).toMatchObject({
      status: 'normal',
      references: ['regions'],
    });

    await database.prisma.$executeRawUnsafe(
      'ALTER TABLE master.promotions ADD COLUMN currency_code char(3) REFERENCES master.currencies (code)',
    );
    expect((await syncTableRegistry(database.prisma, MASTER_SCHEMA)).referencesChanged).toEqual([
      'promotions',
    ]);
    expect((await registryRow('promotions'))?.references).toEqual(['currencies', 'regions']);

    // While promotions is being edited it holds regions and currencies; dropping it frees them.
    const held = await updateTableStatusWithLock(database.prisma, {
      tableName: 'promotions',
      currentStatus: 'normal',
      targetStatus: 'editing',
      editor: 'alice',
    });
    expect(held.lockResult).toBe(true);
    await updateTableStatusWithLock(database.prisma, {
      tableName: 'price_lists',
      currentStatus: 'normal',
      targetStatus: 'editing',
      editor: 'bob',
    });
    expect((await registryRow('currencies'))?.lockedBy).toEqual(['price_lists', 'promotions']);

    await database.prisma.$executeRawUnsafe('DROP TABLE master.promotions');
    expect(await syncTableRegistry(database.prisma, MASTER_SCHEMA)).toEqual({
      added: [],
      removed: ['promotions'],
      referencesChanged: [],
      leftOut: [],
    });
    expect(await registryRow('promotions')).toBeNull();
    expect(await registryRow('regions')).toMatchObject({ status: 'normal', lockedBy: [] });
    expect(await registryRow('currencies')).toMatchObject({
      status: 'locked',
      lockedBy: ['price_lists'],
    });
  });

  it('is one statement: a sync that waits for a busy row longer than an interactive transaction may last still lands', async () => {
    // Prisma ends an interactive transaction after 5 s; with thousands of tables on a busy
    // machine a sync took longer than that and failed (P2028). Here a row held by another
    // transaction makes it wait as long.
    await database.prisma.$executeRawUnsafe(
      'ALTER TABLE master.warehouses ADD COLUMN currency_code char(3) REFERENCES master.currencies (code)',
    );
    const holder = createPrismaClient(database.url, { poolSize: 1 });
    let sync: Promise<RegistrySync> | undefined;
    try {
      await holder.$transaction(
        async (tx) => {
          await tx.$queryRawUnsafe(
            "SELECT 1 FROM tablelock.table_lock WHERE table_name = 'warehouses' FOR UPDATE",
          );
          sync = syncTableRegistry(database.prisma, MASTER_SCHEMA);
          await new Promise((resolve) => setTimeout(resolve, 6_000));
        },
        { timeout: 20_000 },
      );
      expect((await sync)?.referencesChanged).toEqual(['warehouses']);
    } finally {
      await holder.$disconnect();
    }
    expect((await registryRow('warehouses'))?.references).toContain('currencies');
  });
});
