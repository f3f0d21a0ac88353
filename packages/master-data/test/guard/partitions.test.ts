import { acquireTableLock, setTablePolicy, syncTableRegistry } from '@tablelock/lock';
import { MASTER_SCHEMA } from '@tablelock/test-support';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readWriteGuardStatus, syncWriteGuards } from '../../src';
import { TABLE, useGuardTestbed } from './guardTestbed';

// Issue 40, item 3: the guard's statement triggers fire for the table a statement names, so a
// write straight to a partition of an ENFORCE table passed, unrefused and unrecorded. Postgres
// clones no statement trigger to partitions, and TRUNCATE of a partition fires no row trigger:
// nothing could guard a partition attached after the guard was installed. tablelock leaves
// partitioned tables out (README, "The write guard"): none is lockable or guarded, and none
// may keep the guard's triggers, which would claim a guard its partitions do not have.
const bed = useGuardTestbed();

const SALES = 'guarded_sales';
const PARTITION = 'guarded_sales_low';
/** Partitioned, no partition yet: pg_inherits has no row of it. */
const EMPTY = 'guarded_empty';
/** Table inheritance, on which partitions are built: a write to the parent writes the child. */
const STOCK = 'guarded_stock';
const STOCK_CHILD = 'guarded_stock_extra';

const sql = (statement: string) => bed.database.prisma.$executeRawUnsafe(statement);

beforeAll(async () => {
  await sql(`CREATE TABLE ${MASTER_SCHEMA}.${SALES} (id integer PRIMARY KEY, amount numeric)
             PARTITION BY RANGE (id)`);
  await sql(`CREATE TABLE ${MASTER_SCHEMA}.${PARTITION} PARTITION OF ${MASTER_SCHEMA}.${SALES}
             FOR VALUES FROM (0) TO (100)`);
  await sql(
    `CREATE TABLE ${MASTER_SCHEMA}.${EMPTY} (id integer PRIMARY KEY) PARTITION BY LIST (id)`,
  );
  await sql(`CREATE TABLE ${MASTER_SCHEMA}.${STOCK} (id integer PRIMARY KEY, amount numeric)`);
  await sql(
    `CREATE TABLE ${MASTER_SCHEMA}.${STOCK_CHILD} (id integer PRIMARY KEY, amount numeric)`,
  );
  await sql(`ALTER TABLE ${MASTER_SCHEMA}.${STOCK_CHILD} INHERIT ${MASTER_SCHEMA}.${STOCK}`);
  await syncTableRegistry(bed.database.prisma, MASTER_SCHEMA);
});

/** The test's own tables (not the demo data's) that carry any of the guard's triggers. */
async function tablesWithGuardTriggers(): Promise<string[]> {
  const rows = await bed.database.prisma.$queryRaw<{ name: string }[]>`
    SELECT DISTINCT c.relname::text AS name FROM pg_trigger AS tg
    JOIN pg_class AS c ON c.oid = tg.tgrelid
    JOIN pg_namespace AS n ON n.oid = c.relnamespace
    WHERE n.nspname = ${MASTER_SCHEMA} AND starts_with(tg.tgname, 'tablelock_guard_')
      AND starts_with(c.relname, 'guarded_')
    ORDER BY 1`;
  return rows.map((row) => row.name);
}

/** What the API's sync at start does: the registry, then every table's triggers. */
async function syncAll() {
  const registry = await syncTableRegistry(bed.database.prisma, MASTER_SCHEMA);
  const guards = await syncWriteGuards(bed.database.prisma, MASTER_SCHEMA, 'ENFORCE');
  return { registry, guards };
}

const LEFT_OUT = [
  { table: SALES, is: `${SALES} is partitioned` },
  { table: PARTITION, is: `${PARTITION} is a partition of ${SALES}`, parent: SALES },
  { table: EMPTY, is: `${EMPTY} is partitioned` },
  { table: STOCK, is: `${STOCK} has child tables (INHERITS)` },
  { table: STOCK_CHILD, is: `${STOCK_CHILD} inherits from ${STOCK}`, parent: STOCK },
];

describe('partitioned tables and the write guard', () => {
  beforeEach(() => syncWriteGuards(bed.database.prisma, MASTER_SCHEMA, 'OFF'));

  it('never guards a partitioned table, so no write straight to a partition passes a guard claimed', async () => {
    const { registry, guards } = await syncAll();
    expect(registry.leftOut).toEqual([EMPTY, SALES, PARTITION, STOCK, STOCK_CHILD]);
    const registered = await bed.database.prisma.tableLock.findMany({
      where: { tableName: { in: LEFT_OUT.map((left) => left.table) } },
    });
    expect(registered).toEqual([]);
    expect(guards.failed).toEqual([]);
    expect(await tablesWithGuardTriggers()).toEqual([TABLE]);
  });

  it.each(LEFT_OUT)(
    'refuses to lock $table or guard it by policy (TABLE_PARTITIONED)',
    async ({ table, is, parent }) => {
      const refusal = {
        code: 'TABLE_PARTITIONED',
        message: expect.stringContaining(`${is}: tablelock neither locks nor guards`),
        details: parent ? { parent } : {},
      };
      await expect(
        acquireTableLock(bed.database.prisma, {
          tableName: table,
          editor: 'alice',
          leaseSeconds: 600,
        }),
      ).rejects.toMatchObject(refusal);
      await expect(
        bed.database.prisma.$transaction((tx) =>
          setTablePolicy(tx, {
            tableName: table,
            change: { writeGuard: 'ENFORCE' },
            actor: 'admin',
          }),
        ),
      ).rejects.toMatchObject(refusal);
      expect(await bed.database.prisma.tablePolicy.count({ where: { tableName: table } })).toBe(0);
      expect(await bed.database.prisma.lockEvent.count({ where: { tableName: table } })).toBe(0);
    },
  );

  it('removes the guard a partitioned table carries from an earlier version', async () => {
    // What the sync before this fix installed on a registered partitioned table at ENFORCE.
    await bed.database.prisma
      .$queryRaw`SELECT tablelock.install_write_guard(${MASTER_SCHEMA}, ${SALES}, 'ENFORCE')`;
    const status = await readWriteGuardStatus(bed.database.prisma, MASTER_SCHEMA, 'OFF');
    expect(status.unguardedTables).toMatchObject([
      { tableName: SALES, wanted: 'OFF', installed: 'ENFORCE' },
    ]);
    const { guards } = await syncAll();
    expect(guards.removed).toEqual([SALES]);
    expect(await tablesWithGuardTriggers()).toEqual([TABLE]);
  });

  it('leaves out a guarded master table once it is attached as a partition, and its guard', async () => {
    const later = 'guarded_sales_high';
    await sql(`CREATE TABLE ${MASTER_SCHEMA}.${later} (id integer PRIMARY KEY, amount numeric)`);
    const before = await syncAll();
    expect(before.registry.added).toEqual([later]);
    expect(await tablesWithGuardTriggers()).toEqual([TABLE, later]);

    await sql(`ALTER TABLE ${MASTER_SCHEMA}.${SALES} ATTACH PARTITION ${MASTER_SCHEMA}.${later}
               FOR VALUES FROM (100) TO (200)`);
    const after = await syncAll();
    expect(after.registry.removed).toEqual([later]);
    expect(after.registry.leftOut).toContain(later);
    expect(after.guards.removed).toEqual([later]);
    expect(await tablesWithGuardTriggers()).toEqual([TABLE]);
    await expect(
      acquireTableLock(bed.database.prisma, {
        tableName: later,
        editor: 'alice',
        leaseSeconds: 600,
      }),
    ).rejects.toMatchObject({ code: 'TABLE_PARTITIONED', details: { parent: SALES } });

    await sql(`ALTER TABLE ${MASTER_SCHEMA}.${SALES} DETACH PARTITION ${MASTER_SCHEMA}.${later}`);
    const detached = await syncAll();
    expect(detached.registry.added).toEqual([later]);
    expect(detached.registry.leftOut).not.toContain(later);
    expect(await tablesWithGuardTriggers()).toEqual([TABLE, later]);
    await sql(`DROP TABLE ${MASTER_SCHEMA}.${later}`);
    await syncTableRegistry(bed.database.prisma, MASTER_SCHEMA);
  });
});
