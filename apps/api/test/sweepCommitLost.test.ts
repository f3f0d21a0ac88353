import { acquireTableLock, grantedOrConflict } from '@tablelock/lock';
import { createTestDatabase, poll, type TestDatabase } from '@tablelock/test-support';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLockSweeper } from '../src/process/lockSweeper';
import { readRegistry } from './support/registry';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  // The commit of a write that ends a lock waits here while `held_commits` has a row:
  // long enough for the test to end its connection, so that the COMMIT is never answered.
  await database.prisma.$executeRawUnsafe('CREATE TABLE public.held_commits (one int)');
  await database.prisma.$executeRawUnsafe(`
    CREATE FUNCTION public.hold_commit() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF EXISTS (SELECT FROM public.held_commits) THEN PERFORM pg_sleep(30); END IF;
      RETURN NULL;
    END $$`);
  await database.prisma.$executeRawUnsafe(`
    CREATE CONSTRAINT TRIGGER hold_commit AFTER UPDATE ON tablelock.table_lock
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    WHEN (OLD.status = 'editing' AND NEW.status = 'normal')
    EXECUTE FUNCTION public.hold_commit()`);
});
afterAll(() => database.close());

describe('the lock sweeper', () => {
  // Seen when an external Postgres stopped under two API processes: a sweep's connection broke
  // at its COMMIT, and the sweeper logged an error ("lock sweep failed") for an outage.
  it('takes a sweep whose commit went unanswered as cut off, not failed, and sweeps again', async () => {
    const lines: { level: number; msg: string }[] = [];
    const logger = pino(
      { level: 'info' },
      { write: (line: string) => lines.push(JSON.parse(line)) },
    );
    grantedOrConflict(
      await acquireTableLock(database.prisma, {
        tableName: 'regions',
        editor: 'alice',
        leaseSeconds: 1,
      }),
    );
    await database.prisma.$executeRawUnsafe('INSERT INTO public.held_commits VALUES (1)');
    const stopSweeper = startLockSweeper({ prisma: database.prisma, logger, intervalMs: 250 });
    try {
      const { pid } = await poll('the sweep waiting at its commit', 30_000, async () => {
        const [sweep] = await database.prisma.$queryRaw<{ pid: number }[]>`
          SELECT pid FROM pg_stat_activity WHERE wait_event = 'PgSleep'`;
        return sweep;
      });
      await database.prisma.$executeRawUnsafe('DELETE FROM public.held_commits');
      const [ended] = await database.prisma.$queryRaw<{ ended: boolean }[]>`
        SELECT pg_terminate_backend(${pid}::int) AS ended`;
      expect(ended?.ended).toBe(true);

      await poll('the lock swept by a later round', 60_000, async () =>
        (await readRegistry(database.prisma)).get('regions')?.status === 'normal'
          ? true
          : undefined,
      );
    } finally {
      await stopSweeper();
    }
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    expect(lines.map((line) => line.msg)).toContain(
      'lock sweep cut off at its commit; the next round sweeps again',
    );
  });
});
