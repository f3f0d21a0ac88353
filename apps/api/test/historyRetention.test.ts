import { createTestDatabase, type TestDatabase } from '@tablelock/test-support';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, retentionSettingsOf } from '../src/config';
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

const loadRetentionSettings = (env: Record<string, string>) => retentionSettingsOf(loadConfig(env));

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

  it('deletes webhook deliveries past WEBHOOK_DELIVERY_RETENTION_DAYS, each batch recorded', async () => {
    // Entries of one live endpoint and of one deleted since (its log outlives it). The endpoint
    // starts after the outbox's last event: the test API's deliverer has nothing to send it (an
    // attempt of the first test's events, logged now, turned up here under the suite's load).
    const [endpoint] = await database.prisma.$queryRaw<{ id: bigint }[]>`
      INSERT INTO tablelock.webhook (url, event_types, tables, with_rows, secret, after_position,
        created_by)
      SELECT 'https://erp.example.com/hooks', '{}', '{}', false, 'whsec_x',
             coalesce(max(position), 0), 'admin'
      FROM tablelock.outbox_event
      RETURNING id`;
    const deliveries = (daysAgo: number, webhookId: bigint | null, count: number) =>
      database.prisma.$executeRaw`
        INSERT INTO tablelock.webhook_delivery (webhook_id, url, message_id, event_id, table_name,
          type, attempt, at, latency_ms, delivered)
        SELECT ${webhookId}, 'https://erp.example.com/hooks', 'm' || n, n, 'products', 'save', 1,
          now() - make_interval(days => ${daysAgo}::int), 5, true
        FROM generate_series(1, ${count}::int) AS n`;
    await deliveries(40, endpoint?.id ?? null, 3);
    await deliveries(40, null, 2);
    await deliveries(10, endpoint?.id ?? null, 4);

    const sweeper = startRetentionSweeper(
      database.prisma,
      pino({ level: 'silent' }),
      loadRetentionSettings({ WEBHOOK_DELIVERY_RETENTION_DAYS: '30' }),
      { batchSize: 3 },
    );
    try {
      await sweeper.sweep();
      const left = await database.prisma.$queryRaw<{ days: number; count: number }[]>`
        SELECT round(extract(epoch FROM now() - at) / 86400)::int AS days, count(*)::int AS count
        FROM tablelock.webhook_delivery GROUP BY 1`;
      expect(left).toEqual([{ days: 10, count: 4 }]);
      expect((await purgeRecords('webhook deliveries')).map((event) => event.details)).toEqual([
        { retentionDays: 30, webhookDeliveries: 3 },
        { retentionDays: 30, webhookDeliveries: 2 },
      ]);
    } finally {
      await sweeper.stop();
    }
  });

  it('keeps webhook deliveries 30 days unless told otherwise, from 1 to 36500 days', () => {
    expect(loadRetentionSettings({}).webhookDeliveriesDays).toBe(30);
    for (const days of ['0', '36501', '1.5', 'a month']) {
      expect(() => loadConfig({ WEBHOOK_DELIVERY_RETENTION_DAYS: days }), days).toThrow(
        /WEBHOOK_DELIVERY_RETENTION_DAYS/,
      );
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
