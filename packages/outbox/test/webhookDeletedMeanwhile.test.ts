import { createTestDatabase, type TestDatabase } from '@tablelock/test-support';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhook, webhooksDue } from '../src';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

describe('looking for due webhooks', () => {
  it('passes over an endpoint that is being deleted meanwhile, instead of failing on it', async () => {
    const { prisma } = database;
    const { webhook } = await createWebhook(
      prisma,
      { url: 'http://127.0.0.1:9/hooks', eventTypes: [], tables: [], withRows: false },
      'admin',
      ['127.0.0.1'],
    );
    // A table with events that the endpoint has no place in yet: the look would open one.
    await prisma.$executeRaw`INSERT INTO tablelock.outbox_stream (table_name) VALUES ('categories')`;
    const deleting = new pg.Client({ connectionString: database.url });
    await deleting.connect();
    try {
      await deleting.query('BEGIN');
      await deleting.query('DELETE FROM tablelock.webhook WHERE id = $1', [webhook.id]);
      const looking = webhooksDue(prisma).then(
        (due) => ({ due }),
        (error: unknown) => ({ error }),
      );
      // Let the look finish, or find it waiting for the delete, before the delete commits.
      for (;;) {
        const settled = await Promise.race([looking, Promise.resolve(undefined)]);
        if (settled) break;
        const [waiting] = await prisma.$queryRaw<{ count: number }[]>`
          SELECT count(*)::int AS count FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'`;
        if (waiting && waiting.count > 0) break;
      }
      await deleting.query('COMMIT');
      const looked = await looking;
      expect('error' in looked ? String(looked.error) : 'no error').toBe('no error');
      expect(await prisma.webhookStream.count()).toBe(0);
    } finally {
      await deleting.end();
    }
  });
});
