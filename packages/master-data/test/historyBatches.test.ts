import { acquireTableLock, grantedOrConflict, syncTableRegistry } from '@tablelock/lock';
import {
  createTestDatabase,
  MASTER_SCHEMA,
  resetLockRegistry,
  type TestDatabase,
} from '@tablelock/test-support';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ChangeSetRecord,
  purgeHistory,
  type RowChangeRecord,
  readChangeRows,
  readRowHistory,
  readRowsAsOf,
  readTableChanges,
  revertChange,
  saveRows,
  syncWriteGuards,
} from '../src';
import { type HistorySession, randomHistoryWrites } from './support/randomHistoryWrites';

// Issue 45, outcome 1 (docs/decisions/0022): the compact form of the row history reads as the
// per-row form. The same writes are played twice on the same table, once with every statement
// recorded one row_change per row (batch_from_rows NULL, as migrated) and once as batches;
// every reader must say the same, but for ids, times and tokens, and for the order of one
// statement's rows among themselves (the statement's order, or its keys' order).
const TABLE = 'batch_items';
const TARGET = `${MASTER_SCHEMA}.${TABLE}`;
/** A statement of more rows than a batch holds (1,000): cut into three. */
const MANY = 2_500;
const EVERY_THIRD = Math.floor(MANY / 3);

let database: TestDatabase;
let client: pg.Client;
const session = {} as HistorySession;
const { write, play, historyRead } = randomHistoryWrites(TABLE, session);

beforeAll(async () => {
  database = await createTestDatabase();
  const { prisma } = database;
  await prisma.$executeRawUnsafe(
    `CREATE TABLE ${TARGET} (id integer PRIMARY KEY, name text NOT NULL, price numeric, day date)`,
  );
  await syncTableRegistry(prisma, MASTER_SCHEMA);
  await recordHistoryOf([TABLE]);
  client = new pg.Client({ connectionString: database.url, application_name: 'batch-test' });
  await client.connect();
  Object.assign(session, { database, client });
});
afterAll(async () => {
  await client?.end();
  await database.close();
});

/**
 * Installs the RECORD guard on these tables (and OFF on the others). The guards stay installed
 * when startOver takes the policies away with the rest of the lock registry.
 */
async function recordHistoryOf(tableNames: string[]): Promise<void> {
  await database.prisma.tablePolicy.deleteMany();
  await database.prisma.tablePolicy.createMany({
    data: tableNames.map((tableName) => ({ tableName, writeGuard: 'RECORD' as const })),
  });
  await syncWriteGuards(database.prisma, MASTER_SCHEMA, 'OFF');
}

/** An empty table and history, recorded in the given form; alice's token on the table. */
async function startOver(form: 'rows' | 'batches'): Promise<string> {
  await client.query('UPDATE tablelock.history_capture SET batch_from_rows = NULL');
  await resetLockRegistry(database.prisma);
  await client.query(`TRUNCATE ${TARGET}`);
  await client.query(
    'TRUNCATE tablelock.row_change, tablelock.row_change_batch, tablelock.change_set',
  );
  await client.query(`DELETE FROM tablelock.lock_event WHERE action = 'unlocked_write'`);
  await client.query('UPDATE tablelock.history_capture SET batch_from_rows = $1', [
    form === 'batches' ? 1 : null,
  ]);
  return grantedOrConflict(
    await acquireTableLock(database.prisma, {
      tableName: TABLE,
      editor: 'alice',
      leaseSeconds: 600,
    }),
  ).fencingToken;
}

async function recorded(): Promise<{ rowChanges: number; batches: number }> {
  const { rows } = await client.query<{ rowChanges: number; batches: number }>(
    `SELECT (SELECT count(*) FROM tablelock.row_change)::int AS "rowChanges",
            (SELECT count(*) FROM tablelock.row_change_batch)::int AS batches`,
  );
  return rows[0] ?? { rowChanges: 0, batches: 0 };
}

/** A change's rows, read page by page as the API reads them. */
async function everyChangeRow(change: ChangeSetRecord, pageSize: number) {
  const rows: RowChangeRecord[] = [];
  let after: string | null = null;
  do {
    const page = await readChangeRows(database.prisma, change, { after, first: pageSize });
    rows.push(...page.rows);
    after = page.endCursor;
  } while (after);
  return rows;
}

/**
 * Every change's rows, read page by page as the API reads them; ids left out, and one
 * change's rows sorted, since one statement's rows may come in another order.
 */
async function changeRowsRead(pageSize: number) {
  const { changes } = await readTableChanges(database.prisma, TABLE, { first: 100 });
  const byChange: unknown[][] = [];
  for (const change of changes) {
    const rows = await everyChangeRow(change, pageSize);
    const ids = rows.map((row) => BigInt(row.id));
    expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(new Set(ids).size).toBe(ids.length);
    byChange.push(
      rows
        .map(({ id: _id, changeSet: _change, ...row }) => JSON.stringify(row))
        .sort()
        .map((row) => JSON.parse(row)),
    );
  }
  return byChange;
}

async function inOneTransaction(token: string, statements: string[]): Promise<void> {
  await client.query('BEGIN');
  await client.query('SELECT tablelock.use_lock($1, $2)', [TABLE, token]);
  for (const statement of statements) await client.query(statement);
  await client.query('COMMIT');
}

describe('the compact form of the row history', () => {
  it('reads as the per-row form, for random saves, imports and SQL writes', async () => {
    let batches = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(write, { minLength: 1, maxLength: 5 }), async (writes) => {
        const rowsToken = await startOver('rows');
        for (const step of writes) await play(step, rowsToken);
        const perRow = { ...(await historyRead()), changeRows: await changeRowsRead(2) };
        const batchesToken = await startOver('batches');
        for (const step of writes) await play(step, batchesToken);
        const compact = { ...(await historyRead()), changeRows: await changeRowsRead(2) };
        expect(compact).toEqual(perRow);
        batches += (await recorded()).batches;
      }),
      { numRuns: 15 },
    );
    // Not compared empty-handed: the second plays wrote batches.
    expect(batches).toBeGreaterThan(15);
  });

  it('finds rows of a two-column text key by any value, quotes, commas and braces too', async () => {
    const PAIRS = 'batch_pairs';
    const { prisma } = database;
    // The key's columns in another order than the table's, and names of other lengths: the key
    // as text follows jsonb's order of the names (code, then region).
    await prisma.$executeRawUnsafe(
      `CREATE TABLE ${MASTER_SCHEMA}.${PAIRS} (region text, note text, code text, PRIMARY KEY (region, code))`,
    );
    await syncTableRegistry(prisma, MASTER_SCHEMA);
    await recordHistoryOf([TABLE, PAIRS]);
    const values = ['a,b', '{x}', 'quote"d', 'back\\slash', 'NULL', ' spaced ', '東京', '', 'a'];
    const keys = values.flatMap((region) => values.map((code) => ({ region, code })));
    const play = async (form: 'rows' | 'batches') => {
      await client.query(`TRUNCATE ${MASTER_SCHEMA}.${PAIRS}`);
      await startOver(form);
      const token = grantedOrConflict(
        await acquireTableLock(prisma, { tableName: PAIRS, editor: 'alice', leaseSeconds: 600 }),
      ).fencingToken;
      await client.query('BEGIN');
      await client.query('SELECT tablelock.use_lock($1, $2)', [PAIRS, token]);
      await client.query(
        `INSERT INTO ${MASTER_SCHEMA}.${PAIRS} (region, code, note)
         SELECT k ->> 'region', k ->> 'code', 'first' FROM jsonb_array_elements($1::jsonb) AS k`,
        [JSON.stringify(keys)],
      );
      await client.query(`UPDATE ${MASTER_SCHEMA}.${PAIRS} SET note = 'second' WHERE code <> 'a'`);
      await client.query('COMMIT');
      const history = [];
      for (const key of keys) {
        const page = await readRowHistory(prisma, MASTER_SCHEMA, PAIRS, key, { first: 10 });
        history.push(page.rows.map(({ id: _id, changeSet: _change, ...row }) => row));
      }
      return history;
    };
    const perRow = await play('rows');
    const compact = await play('batches');
    expect(compact).toEqual(perRow);
    expect(compact.every((changes) => changes.length > 0)).toBe(true);
    expect((await recorded()).batches).toBe(2);
  });

  it('finds each of two keys of one batch whose hashes are the same', async () => {
    // Two ids whose keys in this table have one CRC-32C (found by a search over random ids).
    const twins = [2_033_478_874, 1_342_842_874];
    const { rows: hashes } = await client.query<{ hash: number }>(
      `SELECT tablelock.history_key_hash($1, k::text) AS hash FROM unnest($2::int[]) AS k`,
      [TABLE, twins],
    );
    expect(new Set(hashes.map((row) => row.hash)).size).toBe(1);
    const token = await startOver('batches');
    await inOneTransaction(token, [
      `INSERT INTO ${TARGET} SELECT i, 'item ' || i, NULL, NULL
       FROM unnest(ARRAY[1, ${twins[0]}, 2, ${twins[1]}, 3]) AS i`,
      `UPDATE ${TARGET} SET price = id % 1000`,
    ]);
    expect((await recorded()).batches).toBe(2);
    for (const id of twins) {
      const history = await readRowHistory(
        database.prisma,
        MASTER_SCHEMA,
        TABLE,
        { id: String(id) },
        { first: 10 },
      );
      expect(
        history.rows.map((row) => [row.operation, row.newValues?.name ?? row.newValues?.price]),
      ).toEqual([
        ['update', String(id % 1000)],
        ['insert', `item ${id}`],
      ]);
    }
  });

  it('gives a statement of many batches its rows in the order it wrote them, as the per-row form', async () => {
    const rows = 10_000;
    const token = await startOver('batches');
    await inOneTransaction(token, [
      `INSERT INTO ${TARGET} SELECT i, 'item ' || i, NULL, NULL FROM generate_series(1, ${rows}) AS i`,
    ]);
    const [change] = (await readTableChanges(database.prisma, TABLE, { first: 1 })).changes;
    if (!change) throw new Error('no change');
    const keys = (await everyChangeRow(change, 450)).map((row) => Number(row.key.id));
    expect(keys).toEqual(Array.from({ length: rows }, (_, i) => i + 1));
    expect((await recorded()).batches).toBe(rows / 1000);

    // Found through the signatures' index, as beside many batches (ten alone are read whole).
    const refs = `SELECT id FROM tablelock.row_change_refs_of_row('${TABLE}', '{"id": "5000"}')`;
    await client.query('BEGIN');
    try {
      await client.query('SET LOCAL enable_seqscan = off');
      const { rows: plan } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${refs}`);
      expect(plan.map((line) => line['QUERY PLAN']).join('\n')).toContain(
        'row_change_batch_hashes_idx',
      );
      expect((await client.query(refs)).rows).toHaveLength(1);
    } finally {
      await client.query('ROLLBACK');
    }
  });

  it("gives the statement after a batched one the caller's work_mem", async () => {
    const token = await startOver('batches');
    const settings: string[] = [];
    for (const workMem of ['1MB', '64MB']) {
      await client.query('BEGIN');
      await client.query('SELECT tablelock.use_lock($1, $2)', [TABLE, token]);
      await client.query(`SET LOCAL work_mem = '${workMem}'`);
      await client.query(
        `INSERT INTO ${TARGET} SELECT i, 'item ' || i, NULL, NULL FROM generate_series(1, 1000) AS i`,
      );
      const { rows } = await client.query<{ work_mem: string }>('SHOW work_mem');
      settings.push(rows[0]?.work_mem ?? '');
      await client.query('ROLLBACK');
    }
    expect(settings).toEqual(['1MB', '64MB']);
  });

  it('keeps apart the batches of two transactions writing at once', async () => {
    await startOver('batches');
    const other = new pg.Client({ connectionString: database.url, application_name: 'batch-test' });
    await other.connect();
    try {
      // Two unlocked writes of 1,500 rows each, their statements running at the same time on
      // two connections: each takes its batches' ids while the other takes its own.
      const write = async (writer: pg.Client, from: number) => {
        await writer.query('BEGIN');
        await writer.query(
          `INSERT INTO ${TARGET} SELECT i, 'item ' || i, NULL, NULL FROM generate_series($1::int, $1::int + 1499) AS i`,
          [from],
        );
      };
      await Promise.all([write(client, 1), write(other, 10_001)]);
      await Promise.all([client.query('COMMIT'), other.query('COMMIT')]);
    } finally {
      await other.end();
    }
    const { changes } = await readTableChanges(database.prisma, TABLE, { first: 10 });
    expect(changes.map((change) => change.rowsInserted)).toEqual([1500, 1500]);
    const ids: bigint[] = [];
    for (const change of changes) {
      const rows = await everyChangeRow(change, 400);
      const keys = rows.map((row) => Number(row.key.id)).sort((a, b) => a - b);
      const from = keys[0] ?? 0;
      expect(keys).toEqual(Array.from({ length: 1500 }, (_, i) => from + i));
      ids.push(...rows.map((row) => BigInt(row.id)));
    }
    expect(new Set(ids).size).toBe(3000);
    for (const key of [1, 1500, 10_001, 11_500]) {
      const history = await readRowHistory(
        database.prisma,
        MASTER_SCHEMA,
        TABLE,
        { id: String(key) },
        { first: 10 },
      );
      expect(history.rows.map((row) => [row.operation, row.newValues?.name])).toEqual([
        ['insert', `item ${key}`],
      ]);
    }
    expect((await recorded()).batches).toBe(4);
  });

  describe(`a statement of ${MANY} rows, cut into batches`, () => {
    const TIMES = ['3 hours', '2 hours', '1 hour'];

    /** An insert of MANY rows, then an update of every third and a delete of the last 100, each its own change, 3, 2 and 1 hours ago. */
    async function playMany(form: 'rows' | 'batches'): Promise<string> {
      const token = await startOver(form);
      await inOneTransaction(token, [
        `INSERT INTO ${TARGET} SELECT i, 'item ' || i, round(i / 10.0, 1), NULL FROM generate_series(1, ${MANY}) AS i`,
      ]);
      await inOneTransaction(token, [
        `UPDATE ${TARGET} SET price = price + 1, day = '2026-11-30' WHERE id % 3 = 0`,
        `UPDATE ${TARGET} SET name = name WHERE id < 100`,
      ]);
      await inOneTransaction(token, [`DELETE FROM ${TARGET} WHERE id > ${MANY - 100}`]);
      await client.query(
        `UPDATE tablelock.change_set AS cs SET at = now() - (ARRAY[$1, $2, $3]::interval[])[o.n]
         FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM tablelock.change_set) AS o
         WHERE o.id = cs.id`,
        TIMES,
      );
      return token;
    }

    async function everyReader() {
      const history: Record<number, unknown> = {};
      for (const key of [1, 2, 3, 999, 1000, 1001, 1500, 2400, 2401, MANY]) {
        const page = await readRowHistory(
          database.prisma,
          MASTER_SCHEMA,
          TABLE,
          { id: String(key) },
          { first: 10 },
        );
        history[key] = page.rows.map(({ id: _id, changeSet, ...row }) => ({
          ...row,
          change: changeSet.kind,
        }));
      }
      const asOf = async (ago: number) =>
        (
          await readRowsAsOf(database.prisma, MASTER_SCHEMA, TABLE, {
            asOf: new Date(Date.now() - ago),
            historyRetentionDays: null,
            sort: [],
            filter: [],
            offset: 0,
            limit: 500,
          })
        ).rows.map((row) => row.values);
      const hour = 3600_000;
      return {
        history,
        changeRows: await changeRowsRead(333),
        asOf: { before: await asOf(3.5 * hour), between: await asOf(1.5 * hour) },
      };
    }

    it('pages its rows, gives each row its history and the table as it was, as the per-row form', async () => {
      await playMany('rows');
      expect(await recorded()).toEqual({ rowChanges: MANY + EVERY_THIRD + 100, batches: 0 });
      const perRow = await everyReader();
      await playMany('batches');
      expect(await recorded()).toEqual({ rowChanges: 0, batches: 3 + 1 + 1 });
      // Each batch's ids are its own run, after the batches of the statements before.
      const { rows: batches } = await client.query(
        `SELECT row_count, last_id - first_id + 1 AS ids,
                first_id > lag(last_id, 1, 0::bigint) OVER (ORDER BY first_id) AS after
         FROM tablelock.row_change_batch ORDER BY first_id`,
      );
      expect(batches.map((batch) => [batch.row_count, batch.ids, batch.after])).toEqual(
        // The insert's three batches in any order among themselves.
        [...batches.slice(0, 3).map((batch) => batch.row_count), EVERY_THIRD, 100].map((rows) => [
          rows,
          String(rows),
          true,
        ]),
      );
      expect(
        batches
          .slice(0, 3)
          .map((batch) => batch.row_count)
          .sort(),
      ).toEqual([1000, 1000, 500]);
      const compact = await everyReader();
      expect(compact).toEqual(perRow);
      expect(compact.changeRows.map((rows) => rows.length)).toEqual([100, EVERY_THIRD, MANY]);
      expect(compact.asOf.before).toEqual([]);
      expect(compact.asOf.between).toHaveLength(500);
    });

    it('is reverted as the per-row form is, with a row changed since kept', async () => {
      const revertInBatches = async (form: 'rows' | 'batches') => {
        const token = await playMany(form);
        const { changes } = await readTableChanges(database.prisma, TABLE, { first: 10 });
        const update = changes.find((change) => change.rowsUpdated > 0);
        const now = await client.query<{ version: string }>(
          `SELECT xmin::text AS version FROM ${TARGET} WHERE id = 6`,
        );
        await saveRows(database.prisma, {
          schema: MASTER_SCHEMA,
          tableName: TABLE,
          holder: 'alice',
          token,
          changes: {
            inserts: [],
            updates: [
              { key: { id: '6' }, version: now.rows[0]?.version ?? '', values: { name: 'later' } },
            ],
            deletes: [],
          },
        });
        const result = await revertChange(database.prisma, {
          schema: MASTER_SCHEMA,
          tableName: TABLE,
          changeId: update?.id ?? '',
          holder: 'alice',
          token,
          rows: null,
          dryRun: false,
        });
        const { rows } = await client.query(
          `SELECT id, name, price::text, day::text FROM ${TARGET} WHERE id % 3 = 0 ORDER BY id`,
        );
        return {
          reverted: result.reverted,
          steps: result.rows.length,
          conflicts: result.conflicts
            .map(({ key, reason, later }) => ({ key, reason, later: later?.kind }))
            .sort((a, b) => Number(a.key.id) - Number(b.key.id)),
          rows,
        };
      };
      const perRow = await revertInBatches('rows');
      const compact = await revertInBatches('batches');
      expect(compact).toEqual(perRow);
      expect(compact.reverted).toBe(true);
      expect(compact.conflicts[0]).toEqual({
        key: { id: '6' },
        reason: 'changedLater',
        later: 'save',
      });
      expect(compact.rows[0]).toEqual({ id: 3, name: 'item 3', price: '0.3', day: null });
    });

    it('is purged with its change sets', async () => {
      await playMany('batches');
      await client.query(`UPDATE tablelock.change_set SET at = now() - interval '10 days'`);
      expect(await purgeHistory(database.prisma, { retentionDays: 7, batchSize: 100 })).toEqual({
        changeSets: 3,
        rowChanges: MANY + EVERY_THIRD + 100,
      });
      expect(await recorded()).toEqual({ rowChanges: 0, batches: 0 });
    });
  });
});
