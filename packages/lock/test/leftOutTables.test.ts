import { createTestDatabase, MASTER_SCHEMA, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  acquireTableLock,
  acquireTableLocks,
  MIN_IDLE_LIMIT_SECONDS,
  setTableIdleLimit,
  syncTableRegistry,
  updateTableStatusWithLock,
} from '../src';

// Partitioned tables, their partitions and table inheritance are no master tables (issue 40,
// item 3: a write straight to a partition passed the write guard; README, "The write guard").
let database: TestDatabase;

const sql = (statement: string) => database.prisma.$executeRawUnsafe(statement);

beforeAll(async () => {
  database = await createTestDatabase();
  await sql(`CREATE TABLE ${MASTER_SCHEMA}.ledger (id integer PRIMARY KEY, amount numeric)
             PARTITION BY RANGE (id)`);
  await sql(`CREATE TABLE ${MASTER_SCHEMA}.ledger_low PARTITION OF ${MASTER_SCHEMA}.ledger
             FOR VALUES FROM (0) TO (100)`);
  await sql(`CREATE TABLE ${MASTER_SCHEMA}.ledger_notes (
               id integer PRIMARY KEY,
               ledger_id integer REFERENCES ${MASTER_SCHEMA}.ledger (id),
               region_id integer REFERENCES ${MASTER_SCHEMA}.regions (id))`);
  await syncTableRegistry(database.prisma, MASTER_SCHEMA);
});
afterAll(() => database.close());

const PARTITIONED = { code: 'TABLE_PARTITIONED', message: expect.stringContaining('ledger') };

describe('tables the registry leaves out', () => {
  it('are answered as left out, and no master table references them', async () => {
    expect((await syncTableRegistry(database.prisma, MASTER_SCHEMA)).leftOut).toEqual([
      'ledger',
      'ledger_low',
    ]);
    const notes = await database.prisma.tableLock.findUnique({
      where: { tableName: 'ledger_notes' },
    });
    // The FK to ledger is also one to each of its partitions in the catalog.
    expect(notes?.references).toEqual(['regions']);
  });

  it('are refused on every way to lock them, and nothing is taken', async () => {
    const lock = { editor: 'alice', leaseSeconds: 600 };
    await expect(
      acquireTableLock(database.prisma, { ...lock, tableName: 'ledger' }),
    ).rejects.toMatchObject({
      ...PARTITIONED,
      message: expect.stringContaining('ledger is partitioned'),
    });
    await expect(
      acquireTableLock(database.prisma, { ...lock, tableName: 'ledger_low' }),
    ).rejects.toMatchObject({
      ...PARTITIONED,
      message: expect.stringContaining('ledger_low is a partition of ledger'),
      details: { parent: 'ledger' },
    });
    await expect(
      acquireTableLocks(database.prisma, { ...lock, tableNames: ['regions', 'ledger_low'] }),
    ).rejects.toMatchObject(PARTITIONED);
    await expect(
      updateTableStatusWithLock(database.prisma, {
        tableName: 'ledger_low',
        currentStatus: 'normal',
        targetStatus: 'editing',
        editor: 'alice',
      }),
    ).rejects.toMatchObject(PARTITIONED);
    await expect(
      database.prisma.$transaction((tx) =>
        setTableIdleLimit(tx, 'ledger', MIN_IDLE_LIMIT_SECONDS, {
          actor: 'admin',
          minSeconds: MIN_IDLE_LIMIT_SECONDS,
        }),
      ),
    ).rejects.toMatchObject(PARTITIONED);
    expect(
      await database.prisma.tableLock.findUnique({ where: { tableName: 'regions' } }),
    ).toMatchObject({
      status: 'normal',
    });
    expect(await database.prisma.tablePolicy.count()).toBe(0);
  });

  it('are unknown once dropped', async () => {
    await sql(
      `CREATE TABLE ${MASTER_SCHEMA}.journal (id integer PRIMARY KEY) PARTITION BY LIST (id)`,
    );
    expect((await syncTableRegistry(database.prisma, MASTER_SCHEMA)).leftOut).toContain('journal');
    await sql(`DROP TABLE ${MASTER_SCHEMA}.journal`);
    expect((await syncTableRegistry(database.prisma, MASTER_SCHEMA)).leftOut).toEqual([
      'ledger',
      'ledger_low',
    ]);
    await expect(
      acquireTableLock(database.prisma, {
        tableName: 'journal',
        editor: 'alice',
        leaseSeconds: 600,
      }),
    ).rejects.toMatchObject({ code: 'TABLE_NOT_FOUND' });
  });
});
