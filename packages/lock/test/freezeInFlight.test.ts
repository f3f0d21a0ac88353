import { inTransaction } from '@tablelock/db';
import { createTestDatabase, resetLockRegistry, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freezeTables } from '../src';
import type { LockIntent } from '../src/core/lockIntent';
import { planLockChange } from '../src/core/planLockChange';
import { compareAndSetLockRows } from '../src/sql/compareAndSet';
import { readLockScope } from '../src/sql/lockScope';

// The two moments of a freeze racing an acquisition, taken apart and put in the worst order
// (the race test in apps/api shows the whole under load; here each interleaving is forced).

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());
beforeEach(() => resetLockRegistry(database.prisma));

const intent: LockIntent = {
  kind: 'acquire',
  tableName: 'suppliers',
  namedFkTables: [],
  editor: 'alice',
  leaseSeconds: 60,
};

const freezeSuppliers = () =>
  freezeTables(database.prisma, {
    tableNames: ['suppliers'],
    reason: 'close',
    until: null,
    rule: 'waitForHolders',
    actor: 'admin',
  });

async function waitingForARowLock(): Promise<boolean> {
  const [row] = await database.prisma.$queryRaw<{ waiting: number }[]>`
    SELECT count(*)::int AS waiting FROM pg_stat_activity
    WHERE wait_event_type = 'Lock' AND datname = current_database()`;
  return (row?.waiting ?? 0) > 0;
}

describe('a freeze against an acquisition in flight', () => {
  it('planned before the freeze, written after it: the write fails', async () => {
    const rows = await readLockScope(database.prisma, 'suppliers', []);
    const plan = planLockChange(intent, rows);
    if (!plan.granted) throw new Error('planned as refused');
    await freezeSuppliers();

    const written = await compareAndSetLockRows(
      database.prisma,
      [...rows.values()],
      plan.changes,
      null,
    );
    expect(written.written).toBe(false);
    expect(
      (await database.prisma.tableLock.findUniqueOrThrow({ where: { tableName: 'suppliers' } }))
        .status,
    ).toBe('normal');
  });

  it('waiting for the row the freeze holds: it reads the freeze with the row', async () => {
    let releaseFreeze: () => void = () => {};
    const frozenButNotCommitted = new Promise<void>((resolve) => {
      void inTransaction(database.prisma, async (tx) => {
        await tx.$executeRaw`
          UPDATE tablelock.table_lock
          SET frozen_at = now(), frozen_by = 'admin', frozen_reason = 'close', version = version + 1
          WHERE table_name = 'suppliers'`;
        resolve();
        await new Promise<void>((release) => {
          releaseFreeze = release;
        });
      });
    });
    await frozenButNotCommitted;
    const reading = inTransaction(database.prisma, (tx) =>
      readLockScope(tx, 'suppliers', [], true),
    );
    // Until the freeze commits, the reader waits for the row.
    while (!(await waitingForARowLock())) await new Promise((resolve) => setImmediate(resolve));
    releaseFreeze();
    const rows = await reading;
    expect(planLockChange(intent, rows)).toMatchObject({
      granted: false,
      refusal: { kind: 'frozen', reason: 'close' },
    });
  });
});
