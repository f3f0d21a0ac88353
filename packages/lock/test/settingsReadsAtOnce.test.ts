import { createTestDatabase, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readIdleLimits, readTables, readTakeOverSettings } from '../src';

// Prisma batches findUnique calls made in the same tick into one query with `id IN (…)`, which
// its Boolean id of the one settings row does not take: every such call failed together, so
// two readers of the tables at once (two users opening the Tables page) got an internal error.

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

describe('the lock settings read by many at once', () => {
  it('answers every reader', async () => {
    const readers = Array.from({ length: 8 }, () => [
      readTables(database.prisma),
      readIdleLimits(database.prisma),
      readTakeOverSettings(database.prisma),
    ]).flat();
    const outcomes = await Promise.allSettled(readers);
    expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
  });
});
