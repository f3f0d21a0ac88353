import { createTestDatabase, MASTER_SCHEMA, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncWriteGuards } from '../../src';

// Two API processes starting at once both find the triggers missing and install them: one of
// them failed its start with `trigger "tablelock_guard_insert" … already exists` (42710).

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

describe('write guard syncs at once', () => {
  it('both succeed and leave each table guarded once', async () => {
    for (let round = 0; round < 5; round++) {
      await syncWriteGuards(database.prisma, MASTER_SCHEMA, 'OFF');
      const outcomes = await Promise.allSettled([
        syncWriteGuards(database.prisma, MASTER_SCHEMA, 'RECORD'),
        syncWriteGuards(database.prisma, MASTER_SCHEMA, 'RECORD'),
        syncWriteGuards(database.prisma, MASTER_SCHEMA, 'RECORD'),
      ]);
      expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
    }
    const [counted] = await database.prisma.$queryRaw<{ triggers: number; tables: number }[]>`
      SELECT count(*)::int AS triggers, count(DISTINCT tgrelid)::int AS tables
      FROM pg_trigger WHERE tgname LIKE 'tablelock_guard_%'`;
    expect(counted?.triggers).toBe((counted?.tables ?? 0) * 4);
  });
});
