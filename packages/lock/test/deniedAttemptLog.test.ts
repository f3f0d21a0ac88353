import { inTransaction } from '@tablelock/db';
import { createTestDatabase, resetLockRegistry, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { acquireTableLock, grantedOrConflict } from '../src';
import type { LockIntent } from '../src/core/lockIntent';
import { recordDenial } from '../src/ops/changeTableLock';

// Losers of a race share the statement that records their denied attempts.

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
beforeEach(() => resetLockRegistry(database.prisma));
afterAll(() => database.close());

const intent = (editor: string): LockIntent => ({
  kind: 'acquire',
  tableName: 'regions',
  namedFkTables: [],
  editor,
  leaseSeconds: 60,
});
const refusal = { kind: 'contended' } as const;

/** The denied attempts on regions, and how many transactions (statements here) wrote them. */
async function denials() {
  const [row] = await database.prisma.$queryRaw<{ denials: number; statements: number }[]>`
    SELECT count(*)::int AS denials, count(DISTINCT xmin::text)::int AS statements
    FROM tablelock.lock_event WHERE table_name = 'regions' AND action = 'denied'`;
  return row;
}

describe('denied attempts', () => {
  it('recorded at the same time go into the history together, in one statement', async () => {
    const before = await denials();
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        recordDenial(database.prisma, intent(`racer-${i}`), `racer-${i}`, refusal),
      ),
    );
    const after = await denials();
    expect(after?.denials).toBe((before?.denials ?? 0) + 30);
    expect(after?.statements).toBe((before?.statements ?? 0) + 1);
  });

  it('of racers for a busy table are each in the history when they are answered', async () => {
    grantedOrConflict(
      await acquireTableLock(database.prisma, {
        tableName: 'regions',
        editor: 'alice',
        leaseSeconds: 60,
      }),
    );
    const before = await denials();
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        acquireTableLock(database.prisma, {
          tableName: 'regions',
          editor: `racer-${i}`,
          leaseSeconds: 60,
        }),
      ),
    );
    expect(answers.every((answer) => 'refused' in answer)).toBe(true);
    expect((await denials())?.denials).toBe((before?.denials ?? 0) + 25);
  });

  it('inside a transaction belong to it: rolled back with it', async () => {
    const before = await denials();
    await expect(
      inTransaction(database.prisma, async (tx) => {
        await recordDenial(tx, intent('bob'), 'bob', refusal);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await denials())?.denials).toBe(before?.denials);
  });
});
