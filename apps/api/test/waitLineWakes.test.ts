import {
  acquireTableLock,
  type LockGrant,
  releaseTableLock,
  UnfinishedLeaves,
  waitForTableLocks,
} from '@tablelock/lock';
import { describe, expect, it } from 'vitest';
import { useLiveDatabase } from './support/liveDatabase';
import { untilQueued } from './support/untilQueued';

const fixture = useLiveDatabase();

const WAITERS = 8;
const RELEASES = 3;

describe('a release wakes the head of the line, not everyone in it', () => {
  it(`with ${WAITERS} in line, each hand-over costs two tries: the new holder's and the next one's`, async () => {
    const { database, live } = fixture;
    const prisma = database.prisma;
    const first = await acquireTableLock(prisma, {
      tableName: 'products',
      editor: 'holder',
      leaseSeconds: null,
    });
    if (!('granted' in first)) throw new Error(JSON.stringify(first));

    const tries = new Map<string, number>();
    // Resolves when `editor` has tried `times` times.
    const waitsForTry = new Map<string, { times: number; resolve: () => void }>();
    const tried = (editor: string, times: number) =>
      new Promise<void>((resolve) => {
        if ((tries.get(editor) ?? 0) >= times) resolve();
        else waitsForTry.set(editor, { times, resolve });
      });
    const line = live.lockChanges.changesForWaiter();
    const leave = new AbortController();
    const grants = new Map<string, Promise<LockGrant[]>>();
    try {
      for (let i = 0; i < WAITERS; i++) {
        const editor = `waiter-${i}`;
        grants.set(
          editor,
          waitForTableLocks(
            prisma,
            {
              tableNames: ['products'],
              editor,
              leaseSeconds: null,
              waitSeconds: 60,
              owner: live.queueOwner,
              unfinishedLeaves: new UnfinishedLeaves(),
              changes: live.lockChanges.changesForWaiter(),
              signal: leave.signal,
            },
            async (acquire) => {
              const answer = await acquire(prisma);
              const times = (tries.get(editor) ?? 0) + 1;
              tries.set(editor, times);
              const waiting = waitsForTry.get(editor);
              if (waiting && times >= waiting.times) waiting.resolve();
              return answer;
            },
          ),
        );
        // One after another, so that the line's order is known.
        await untilQueued(line, editor);
      }
      expect([...tries.values()].reduce((sum, n) => sum + n, 0)).toBe(WAITERS);

      let holder = { editor: 'holder', token: first.granted.fencingToken };
      for (let round = 0; round < RELEASES; round++) {
        await releaseTableLock(prisma, {
          tableName: 'products',
          editor: holder.editor,
          token: holder.token,
        });
        const next = `waiter-${round}`;
        const [grant] = (await grants.get(next)) ?? [];
        if (!grant) throw new Error(`${next} got nothing`);
        holder = { editor: next, token: grant.fencingToken };
        // The one behind the new holder looks once when the holder leaves the line.
        await tried(`waiter-${round + 1}`, 2);
      }
      // Each waiter's first try, two per hand-over, and the next one's look after the last.
      expect(Object.fromEntries(tries)).toEqual({
        'waiter-0': 2,
        'waiter-1': 3,
        'waiter-2': 3,
        'waiter-3': 2,
        'waiter-4': 1,
        'waiter-5': 1,
        'waiter-6': 1,
        'waiter-7': 1,
      });
    } finally {
      leave.abort();
      await Promise.allSettled(grants.values());
      await line.return?.();
      await prisma.lockWaiter.deleteMany();
    }
  });
});
