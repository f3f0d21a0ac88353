import { createTestDatabase, resetLockRegistry, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireTableLock, grantedOrConflict } from '../src';

// A dead lock (its lease over, the sweeper not yet by) never stands in the way of an acquisition.

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  await resetLockRegistry(database.prisma);
});
afterAll(() => database.close());

const acquire = (tableName: string, editor: string) =>
  acquireTableLock(database.prisma, { tableName, editor, leaseSeconds: 60 });

async function leaseRunsOut(tableName: string) {
  await database.prisma.$executeRaw`
    UPDATE tablelock.table_lock SET lease_expires_at = now() - interval '1 second'
    WHERE table_name = ${tableName}`;
}

describe('an acquisition behind dead locks', () => {
  it('expires every dead lock in its way, however many stand one behind the other', async () => {
    // suppliers is locked by products' editing; suppliers references regions, which bob edits.
    grantedOrConflict(await acquire('products', 'alice'));
    grantedOrConflict(await acquire('regions', 'bob'));
    await leaseRunsOut('products');
    await leaseRunsOut('regions');

    const answer = await acquire('suppliers', 'carol');
    expect(answer).toMatchObject({ granted: { tableName: 'suppliers', editor: 'carol' } });
  });
});
