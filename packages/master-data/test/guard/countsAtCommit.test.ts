import { LOCK_CHANNEL } from '@tablelock/lock';
import type pg from 'pg';
import { beforeEach, describe, expect, it } from 'vitest';
import { TABLE, TARGET, useGuardTestbed } from './guardTestbed';

// Issue 40, item 9: a change set's counts were finished by a deferred constraint trigger
// queued when the change set was made, before its rows were recorded. A transaction that set
// its constraints IMMEDIATE fired it there and then: 300 rows written, 0 counted, and the
// unlocked write announced and kept in the lock history with 0 rows.
const bed = useGuardTestbed();

const insertRows = (from: number, count: number) =>
  `INSERT INTO ${TARGET} SELECT n, 'item ' || n, 1 FROM generate_series(${from}, ${from + count - 1}) AS n`;

interface Counts {
  inserted: number;
  updated: number;
  deleted: number;
}

/** The one change set of TABLE, its counts and those of its row changes. */
async function recorded(): Promise<{ id: bigint; counts: Counts; rowChanges: Counts }> {
  const { prisma } = bed.database;
  const changeSets = await prisma.changeSet.findMany({ where: { tableName: TABLE } });
  expect(changeSets).toHaveLength(1);
  const [changeSet] = changeSets;
  if (!changeSet) throw new Error('no change set');
  const count = (operation: string) =>
    prisma.rowChange.count({ where: { changeSetId: changeSet.id, operation } });
  return {
    id: changeSet.id,
    counts: {
      inserted: changeSet.rowsInserted,
      updated: changeSet.rowsUpdated,
      deleted: changeSet.rowsDeleted,
    },
    rowChanges: {
      inserted: await count('insert'),
      updated: await count('update'),
      deleted: await count('delete'),
    },
  };
}

/** The unlocked write's one lock event: its rows and the counts in its details. */
async function unlockedWriteEvents() {
  return bed.database.prisma.lockEvent.findMany({
    where: { tableName: TABLE, action: 'unlocked_write' },
  });
}

/**
 * Listens before it returns, so a write made afterwards cannot commit unheard; `heard` resolves
 * with the announcement of an unlocked write of `rows` rows on TABLE.
 */
async function listenForUnlockedWrite(rows: number) {
  const listener = await bed.connect();
  const heard = new Promise<Record<string, unknown>>((resolve) => {
    listener.on('notification', (message) => {
      const payload = JSON.parse(message.payload ?? '{}') as Record<string, unknown>;
      if (payload.table === TABLE && payload.rowsChanged === rows) resolve(payload);
    });
  });
  await listener.query(`LISTEN ${LOCK_CHANNEL}`);
  return { heard };
}

async function inTransaction(client: pg.Client, statements: string[]): Promise<void> {
  await client.query('BEGIN');
  for (const statement of statements) await client.query(statement);
  await client.query('COMMIT');
}

describe('the counts of an outside write, whatever it does with SET CONSTRAINTS', () => {
  beforeEach(() => bed.guard(TABLE, 'RECORD'));

  it('counts 300 rows written after SET CONSTRAINTS ALL IMMEDIATE, and announces them', async () => {
    const { heard } = await listenForUnlockedWrite(300);
    const client = await bed.connect();
    await inTransaction(client, ['SET CONSTRAINTS ALL IMMEDIATE', insertRows(10, 300)]);
    const { counts, rowChanges, id } = await recorded();
    expect(counts).toEqual({ inserted: 300, updated: 0, deleted: 0 });
    expect(rowChanges).toEqual(counts);
    expect(await unlockedWriteEvents()).toMatchObject([
      {
        rowsChanged: 300,
        details: { changeSetId: id.toString(), inserted: 300, updated: 0, deleted: 0 },
      },
    ]);
    expect(await heard).toMatchObject({ action: 'unlocked_write', rowsChanged: 300 });
  });

  it('counts every statement after an early IMMEDIATE, in one lock event', async () => {
    const { heard } = await listenForUnlockedWrite(300 + 100 + 2 + 50);
    const client = await bed.connect();
    await inTransaction(client, [
      'SET CONSTRAINTS ALL IMMEDIATE',
      insertRows(10, 300),
      `UPDATE ${TARGET} SET price = 2 WHERE id BETWEEN 10 AND 109`,
      `DELETE FROM ${TARGET} WHERE id IN (1, 2)`,
      insertRows(1000, 50),
    ]);
    const { counts, rowChanges } = await recorded();
    expect(counts).toEqual({ inserted: 350, updated: 100, deleted: 2 });
    expect(rowChanges).toEqual(counts);
    expect(await unlockedWriteEvents()).toMatchObject([
      { rowsChanged: 452, details: { inserted: 350, updated: 100, deleted: 2 } },
    ]);
    await heard;
  });

  it('counts writes before and after IMMEDIATE, and after DEFERRED again', async () => {
    const client = await bed.connect();
    await inTransaction(client, [
      insertRows(10, 100),
      'SET CONSTRAINTS ALL IMMEDIATE',
      insertRows(200, 100),
      'SET CONSTRAINTS ALL DEFERRED',
      `UPDATE ${TARGET} SET price = 3 WHERE id BETWEEN 10 AND 59`,
      'SET CONSTRAINTS ALL IMMEDIATE',
      'SET CONSTRAINTS ALL DEFERRED',
      `DELETE FROM ${TARGET} WHERE id BETWEEN 200 AND 209`,
    ]);
    const { counts, rowChanges } = await recorded();
    expect(counts).toEqual({ inserted: 200, updated: 50, deleted: 10 });
    expect(rowChanges).toEqual(counts);
    expect(await unlockedWriteEvents()).toMatchObject([{ rowsChanged: 260 }]);
  });

  it('counts a TRUNCATE after IMMEDIATE, naming the constraint itself', async () => {
    const client = await bed.connect();
    await inTransaction(client, [
      'SET CONSTRAINTS tablelock.change_set_finish IMMEDIATE',
      insertRows(10, 30),
      `TRUNCATE ${TARGET}`,
    ]);
    const { counts, rowChanges } = await recorded();
    expect(counts).toEqual({ inserted: 30, updated: 0, deleted: 32 });
    expect(rowChanges).toEqual(counts);
    expect(await unlockedWriteEvents()).toMatchObject([{ rowsChanged: 62 }]);
  });

  it('keeps the counts of the statements a savepoint rolled back out', async () => {
    const client = await bed.connect();
    await inTransaction(client, [
      'SET CONSTRAINTS ALL IMMEDIATE',
      insertRows(10, 20),
      'SAVEPOINT undone',
      insertRows(100, 40),
      'ROLLBACK TO SAVEPOINT undone',
      `UPDATE ${TARGET} SET price = 4 WHERE id = 1`,
    ]);
    const { counts, rowChanges } = await recorded();
    expect(counts).toEqual({ inserted: 20, updated: 1, deleted: 0 });
    expect(rowChanges).toEqual(counts);
    expect(await unlockedWriteEvents()).toMatchObject([{ rowsChanged: 21 }]);
  });
});

describe('the counts of a locked write', () => {
  beforeEach(() => bed.guard(TABLE, 'ENFORCE'));

  it('counts a locked write that set its constraints IMMEDIATE', async () => {
    const token = await bed.lock(TABLE, 'alice');
    const client = await bed.connect();
    await inTransaction(client, [
      'SET CONSTRAINTS ALL IMMEDIATE',
      `SELECT tablelock.use_lock('${TABLE}', '${token}')`,
      insertRows(10, 300),
      `UPDATE ${TARGET} SET price = 5`,
    ]);
    const { counts, rowChanges } = await recorded();
    expect(counts).toEqual({ inserted: 300, updated: 302, deleted: 0 });
    expect(rowChanges).toEqual(counts);
  });
});
