import { createTestDatabase, type TestDatabase } from '@tablelock/test-support';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRetentionSweeper } from '../src/retention/retentionSweeper';
import { acquireTableLockAs, releaseTableLockAs } from './support/lockOperations';
import { startTestApi, type TestApi } from './support/testApi';

let database: TestDatabase;
let api: TestApi;

beforeAll(async () => {
  database = await createTestDatabase();
  api = await startTestApi(database);
});
afterAll(async () => {
  await api.stop();
  await database.close();
});

/** `count` lock and security events dated `daysAgo`, as a long-running install would have. */
async function oldEvents(count: number, daysAgo: number) {
  await database.prisma.$executeRaw`
    INSERT INTO tablelock.lock_event (at, action, table_name, actor)
    SELECT now() - make_interval(days => ${daysAgo}::int), 'acquire', 'products', 'old-user'
    FROM generate_series(1, ${count}::int)`;
  await database.prisma.$executeRaw`
    INSERT INTO tablelock.security_event (at, action, actor, subject)
    SELECT now() - make_interval(days => ${daysAgo}::int), 'login', 'old-user', 'old-user'
    FROM generate_series(1, ${count}::int)`;
}

const purgeRecords = (subject: string) =>
  database.prisma.securityEvent.findMany({
    where: { action: 'history_purged', subject },
    orderBy: { id: 'asc' },
  });

describe('history retention', () => {
  it('deletes lock and security events past their retention in batches, each batch recorded', async () => {
    await oldEvents(7, 40);
    await oldEvents(2, 10);
    const alice = await api.loginAs('alice');
    const grant = await acquireTableLockAs(alice, 'products');
    await releaseTableLockAs(alice, 'products', grant.token);
    const recentLockEvents = await database.prisma.lockEvent.count({
      where: { actor: { not: 'old-user' } },
    });

    const sweeper = startRetentionSweeper(
      database.prisma,
      pino({ level: 'silent' }),
      { lockHistoryDays: 30, securityEventsDays: 5 },
      { batchSize: 3 },
    );
    try {
      await sweeper.sweep();
      // Lock history keeps 30 days: the 40-day-old events go, the 10-day-old ones and today's stay.
      expect(await database.prisma.lockEvent.count({ where: { actor: 'old-user' } })).toBe(2);
      expect(await database.prisma.lockEvent.count({ where: { actor: { not: 'old-user' } } })).toBe(
        recentLockEvents,
      );
      // Security events keep 5 days: both old sets go; alice's login stays.
      expect(await database.prisma.securityEvent.count({ where: { actor: 'old-user' } })).toBe(0);
      expect(
        await database.prisma.securityEvent.count({ where: { action: 'login', actor: 'alice' } }),
      ).toBe(1);
      expect((await purgeRecords('lock history')).map((event) => event.details)).toEqual([
        { retentionDays: 30, lockEvents: 3 },
        { retentionDays: 30, lockEvents: 3 },
        { retentionDays: 30, lockEvents: 1 },
      ]);
      expect((await purgeRecords('security events')).map((event) => event.details)).toEqual([
        { retentionDays: 5, securityEvents: 3 },
        { retentionDays: 5, securityEvents: 3 },
        { retentionDays: 5, securityEvents: 3 },
      ]);
      expect((await purgeRecords('security events'))[0]).toMatchObject({ actor: 'system' });

      // Nothing more to purge: no more records.
      await sweeper.sweep();
      expect(await purgeRecords('lock history')).toHaveLength(3);
      expect(await purgeRecords('security events')).toHaveLength(3);
    } finally {
      await sweeper.stop();
    }
  });

  it('a purge under way holds no acquisition up', async () => {
    await oldEvents(10, 40);
    const purger = new pg.Client({ connectionString: database.url });
    await purger.connect();
    try {
      await purger.query('BEGIN');
      // The purge's statement, its transaction left open.
      const { rowCount } = await purger.query(`
        DELETE FROM tablelock.lock_event WHERE id IN (
          SELECT id FROM tablelock.lock_event WHERE at < now() - interval '30 days' LIMIT 5000)`);
      expect(rowCount).toBeGreaterThanOrEqual(10);
      const bob = await api.loginAs('bob');
      const grant = await acquireTableLockAs(bob, 'customers');
      await releaseTableLockAs(bob, 'customers', grant.token);
    } finally {
      await purger.query('ROLLBACK');
      await purger.end();
    }
  });
});
