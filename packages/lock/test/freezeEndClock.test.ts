import { createTestDatabase, resetLockRegistry, type TestDatabase } from '@tablelock/test-support';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { acquireTableLock, freezeTables, isGranted, readTablesNamed, thawTables } from '../src';

// A freeze's end is judged on the database's clock by everyone: the acquisition it refuses and
// the read model that shows the table. The app's clock (only its Date) is moved past the
// freeze's end to make the two clocks disagree; the database's decides.

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  await resetLockRegistry(database.prisma);
});
afterEach(() => vi.useRealTimers());
afterAll(() => database.close());

async function databaseNowPlus(interval: string): Promise<Date> {
  const [row] = await database.prisma.$queryRaw<{ at: Date }[]>`
    SELECT now() + ${interval}::interval AS at`;
  if (!row) throw new Error('no time from the database');
  return row.at;
}

describe("a freeze's end", () => {
  it('is not over for readers while the database clock has not reached it, whatever the app clock says', async () => {
    const until = await databaseNowPlus('1 hour');
    await freezeTables(database.prisma, {
      tableNames: ['suppliers'],
      reason: 'monthly close',
      until,
      rule: 'waitForHolders',
      actor: 'admin',
    });
    vi.useFakeTimers({ toFake: ['Date'], now: until.getTime() + 60 * 60 * 1000 });

    const [suppliers] = await readTablesNamed(database.prisma, ['suppliers']);
    expect(suppliers?.frozen?.reason).toBe('monthly close');
    expect(suppliers?.editBlock).toEqual({
      kind: 'frozen',
      blockers: [{ table: 'suppliers', editor: null }],
      reason: 'monthly close',
    });
    const acquired = await acquireTableLock(database.prisma, {
      tableName: 'suppliers',
      editor: 'alice',
      leaseSeconds: 60,
    });
    expect(isGranted(acquired) ? null : acquired.refused.kind).toBe('frozen');
    await thawTables(database.prisma, { tableNames: ['suppliers'], actor: 'admin' });
  });

  it('is over for readers once the database clock has passed it, whatever the app clock says', async () => {
    await freezeTables(database.prisma, {
      tableNames: ['suppliers'],
      reason: 'monthly close',
      until: await databaseNowPlus('1 hour'),
      rule: 'waitForHolders',
      actor: 'admin',
    });
    await database.prisma.$executeRaw`
      UPDATE tablelock.table_lock SET frozen_until = now() - interval '1 second'
      WHERE table_name = 'suppliers'`;
    vi.useFakeTimers({ toFake: ['Date'], now: (await databaseNowPlus('-1 hour')).getTime() });

    const [suppliers] = await readTablesNamed(database.prisma, ['suppliers']);
    expect(suppliers?.frozen).toBeNull();
    expect(suppliers?.editBlock).toBeNull();
  });
});
