import { awaitDurableAnswer, inAnswerScope, statementsSent } from '@tablelock/db';
import { createTestDatabase, resetLockRegistry, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  acquireTableLock,
  grantedOrConflict,
  releaseTableLock,
  updateTableStatusWithLock,
} from '../src';

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

const denialsOf = async (tableName: string, editor: string) => {
  const [row] = await database.prisma.$queryRaw<{ count: number }[]>`
    SELECT count(*)::int AS count FROM tablelock.lock_event
    WHERE table_name = ${tableName} AND action = 'denied' AND editor = ${editor}`;
  return row?.count ?? Number.NaN;
};

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

  it('a legacy acquisition and release: a read and a conditional write each', async () => {
    const legacy = (currentStatus: 'normal' | 'editing', targetStatus: 'normal' | 'editing') =>
      counted(() =>
        updateTableStatusWithLock(database.prisma, {
          tableName: 'currencies',
          currentStatus,
          targetStatus,
          editor: 'alice',
        }),
      );
    const acquired = await legacy('normal', 'editing');
    expect(acquired.answer.lockResult).toBe(true);
    expect(acquired.statements).toBe(2);
    const released = await legacy('editing', 'normal');
    expect(released.answer.lockResult).toBe(true);
    expect(released.statements).toBe(2);
  });

  it('a refused legacy acquisition is answered durably on its read and denial: its denial commit is the barrier', async () => {
    grantedOrConflict(await acquire('products', 'alice'));
    const denialsBefore = await denialsOf('products', 'bob');
    const refused = await counted(() =>
      inAnswerScope(async () => {
        const answer = await updateTableStatusWithLock(database.prisma, {
          tableName: 'products',
          currentStatus: 'normal',
          targetStatus: 'editing',
          editor: 'bob',
        });
        await awaitDurableAnswer(database.prisma);
        return answer;
      }),
    );
    expect(refused.answer.lockResult).toBe(false);
    expect(refused.statements).toBe(2);
    expect(await denialsOf('products', 'bob')).toBe(denialsBefore + 1);
  });

  it('a legacy release of a lock that waits with a change request: its read alone, nothing ended', async () => {
    const { fencingToken } = grantedOrConflict(await acquire('suppliers', 'alice'));
    // What submitting a change request does to the lock: the token is the request's, no lease.
    await database.prisma.$executeRaw`
      UPDATE tablelock.table_lock SET lease_expires_at = NULL, version = version + 1
      WHERE table_name = 'suppliers'`;
    await database.prisma.$executeRaw`
      INSERT INTO tablelock.change_request
        (table_name, author, submitted_by, submitters, token, changes, rows, row_count)
      VALUES ('suppliers', 'alice', 'alice', ARRAY['alice'], ${fencingToken}::bigint,
              '{}'::jsonb, '[]'::jsonb, 0)`;
    try {
      const released = await counted(() =>
        updateTableStatusWithLock(database.prisma, {
          tableName: 'suppliers',
          currentStatus: 'editing',
          targetStatus: 'normal',
          editor: 'alice',
        }),
      );
      expect(released.answer).toEqual({
        lockResult: false,
        currentStatus: 'editing',
        fkCurrentStatus: [],
      });
      expect(released.statements).toBe(1);
      const [lock] = await database.prisma.$queryRaw<{ status: string; editor: string }[]>`
        SELECT status::text AS status, editor FROM tablelock.table_lock
        WHERE table_name = 'suppliers'`;
      expect(lock).toEqual({ status: 'editing', editor: 'alice' });
      const [request] = await database.prisma.$queryRaw<{ state: string }[]>`
        SELECT state::text AS state FROM tablelock.change_request WHERE table_name = 'suppliers'`;
      expect(request?.state).toBe('pending');
      const [denials] = await database.prisma.$queryRaw<{ count: number }[]>`
        SELECT count(*)::int AS count FROM tablelock.lock_event
        WHERE table_name = 'suppliers' AND action = 'denied'`;
      expect(denials?.count).toBe(0);
    } finally {
      await database.prisma.$executeRaw`DELETE FROM tablelock.change_request`;
    }
  });

  it('acquisitions racing for a table in one process: one writes, the others are refused at their read', async () => {
    const racers = Array.from({ length: 20 }, (_, i) => `racer-${i}`);
    const race = await counted(() =>
      Promise.all(racers.map((editor) => acquire('products', editor))),
    );
    const granted = race.answer.filter((answer) => 'granted' in answer);
    expect(granted).toHaveLength(1);
    const refusals = race.answer.flatMap((answer) => ('refused' in answer ? [answer.refused] : []));
    expect(refusals.map((refusal) => refusal.kind)).toEqual(
      racers.slice(1).map(() => 'beingEdited'),
    );
    // The winner's read and write, each loser's read, and their denials' INSERTs (shared).
    expect(race.statements).toBeLessThanOrEqual(2 + 19 + 19);
  });
});
