import { statementsSent } from '@tablelock/db';
import { createTestDatabase, resetLockRegistry, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { acquireTableLock, grantedOrConflict, releaseTableLock } from '../src';

// The lock path's cost in round trips to Postgres: each statement sent is one.

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
beforeEach(() => resetLockRegistry(database.prisma));
afterAll(() => database.close());

const acquire = (tableName: string, editor: string) =>
  acquireTableLock(database.prisma, { tableName, editor, leaseSeconds: 60 });

/** The statements `work` sends, and what it answers. */
async function counted<T>(work: () => Promise<T>): Promise<{ statements: number; answer: T }> {
  const before = statementsSent(database.prisma) ?? Number.NaN;
  const answer = await work();
  return { statements: (statementsSent(database.prisma) ?? Number.NaN) - before, answer };
}

describe('statements of the lock path', () => {
  it('an acquisition and a release: a read and a conditional write each', async () => {
    const acquired = await counted(() => acquire('products', 'alice'));
    const token = grantedOrConflict(acquired.answer).fencingToken;
    expect(acquired.statements).toBe(2);
    const released = await counted(() =>
      releaseTableLock(database.prisma, { tableName: 'products', editor: 'alice', token }),
    );
    expect(released.answer).toHaveProperty('granted');
    expect(released.statements).toBe(2);
  });

  it('an acquisition refused because the table is being edited: its read and its denial', async () => {
    grantedOrConflict(await acquire('products', 'alice'));
    const refused = await counted(() => acquire('products', 'bob'));
    expect(refused.answer).toMatchObject({ refused: { kind: 'beingEdited' } });
    expect(refused.statements).toBe(2);
  });

  it('an acquisition refused because a table it references is being edited: the same two', async () => {
    grantedOrConflict(await acquire('suppliers', 'alice'));
    const refused = await counted(() => acquire('products', 'bob'));
    expect(refused.answer).toMatchObject({ refused: { kind: 'referenceBeingEdited' } });
    expect(refused.statements).toBe(2);
  });
});
