import {
  acquireTableLock,
  releaseTableLock,
  removeGoneWaiters,
  UnfinishedLeaves,
  waitForTableLocks,
} from '@tablelock/lock';
import { describe, expect, it } from 'vitest';
import { useLiveDatabase } from './support/liveDatabase';
import { untilQueued } from './support/untilQueued';

const fixture = useLiveDatabase();

describe('a place in line this process could not give up', () => {
  it('holds up nobody once the database answers again: the next sweep gives it up', async () => {
    const { database, live } = fixture;
    const prisma = database.prisma;
    const holder = await acquireTableLock(prisma, {
      tableName: 'products',
      editor: 'holder',
      leaseSeconds: null,
    });
    if (!('granted' in holder)) throw new Error(JSON.stringify(holder));
    const unfinishedLeaves = new UnfinishedLeaves();
    const line = live.lockChanges.changesForWaiter();
    const waitFor = (editor: string, waitSeconds: number) =>
      waitForTableLocks(
        prisma,
        {
          tableNames: ['products'],
          editor,
          leaseSeconds: null,
          waitSeconds,
          owner: live.queueOwner,
          unfinishedLeaves,
          changes: live.lockChanges.changesForWaiter(),
        },
        (acquire) => acquire(prisma),
      );
    try {
      // bob's wait ends while the database refuses to let him out of the line, as in an outage.
      await prisma.$executeRawUnsafe(`
        CREATE FUNCTION public.refuse_leaving() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'the database is away'; END $$`);
      await prisma.$executeRawUnsafe(`
        CREATE TRIGGER refuse_leaving BEFORE DELETE ON tablelock.lock_waiter
        FOR EACH ROW EXECUTE FUNCTION public.refuse_leaving()`);
      await expect(waitFor('bob', 1)).rejects.toThrow('the database is away');
      await prisma.$executeRawUnsafe('DROP TRIGGER refuse_leaving ON tablelock.lock_waiter');

      const carol = waitFor('carol', 60);
      await untilQueued(line, 'carol');
      await releaseTableLock(prisma, {
        tableName: 'products',
        editor: 'holder',
        token: holder.granted.fencingToken,
      });
      // The sweeper's round: bob's process is alive, so only it can give his place up.
      await unfinishedLeaves.finish(prisma);
      await removeGoneWaiters(prisma);
      const [grant] = await carol;
      expect(grant).toMatchObject({ tableName: 'products', editor: 'carol' });
      expect(await prisma.lockWaiter.count()).toBe(0);
    } finally {
      await line.return?.();
      await prisma.lockWaiter.deleteMany();
    }
  });
});
