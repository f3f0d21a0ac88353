import { readFileSync } from 'node:fs';
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
  applyImport,
  dryRunImport,
  readRowHistory,
  readTableChanges,
  saveRows,
  syncWriteGuards,
} from '../src';

// Issue 45, outcome 1: history captured at bulk speed says what the capture before it said.
// Random grid saves, imports and SQL writes (locked and not; inserts, updates of some columns,
// updates that change nothing, deletes, key changes, truncates, statements that fail and take
// their transaction with them) are played twice on the same table: under the capture the
// migrations make, and under the one before it (test/support/historyCaptureBefore.sql, the
// functions of migration 20261205000000_row_scope_writes). Every row's history, the table's
// changes and the unlocked writes' lock events must read the same, but for ids, times and tokens.
const TABLE = 'capture_items';
const TARGET = `${MASTER_SCHEMA}.${TABLE}`;
const CAPTURE_FUNCTIONS = ['guard_write', 'guard_truncate', 'finish_change_set'];
const BEFORE = readFileSync(new URL('./support/historyCaptureBefore.sql', import.meta.url), 'utf8');
/** Keys written, and where key changes take them. */
const IDS = Array.from({ length: 8 }, (_, i) => i + 1);
const KEYS = Array.from({ length: 16 }, (_, i) => i + 1);

let database: TestDatabase;
let client: pg.Client;
let current = '';

beforeAll(async () => {
  database = await createTestDatabase();
  const { prisma } = database;
  await prisma.$executeRawUnsafe(
    `CREATE TABLE ${TARGET} (id integer PRIMARY KEY, name text NOT NULL, price numeric, day date)`,
  );
  await syncTableRegistry(prisma, MASTER_SCHEMA);
  await prisma.tablePolicy.create({ data: { tableName: TABLE, writeGuard: 'RECORD' } });
  await syncWriteGuards(prisma, MASTER_SCHEMA, 'OFF');
  client = new pg.Client({ connectionString: database.url, application_name: 'capture-test' });
  await client.connect();
  const { rows } = await client.query<{ definition: string }>(
    `SELECT pg_get_functiondef(format('tablelock.%I()', name)::regprocedure) AS definition
     FROM unnest($1::text[]) AS name`,
    [CAPTURE_FUNCTIONS],
  );
  current = rows.map(({ definition }) => `${definition};`).join('\n');
});
afterAll(async () => {
  await client?.end();
  await database.close();
});

const name = fc.constantFrom('bolt', 'nut', 'washer', 'gear');
const price = fc.constantFrom('1.50', '0.20', '7', null);
const day = fc.constantFrom('2026-01-05', '2026-12-31', null);
const id = fc.constantFrom(...IDS);
const range = fc.tuple(id, fc.nat({ max: 3 })).map(([low, width]) => [low, low + width] as const);

const statement = fc.oneof(
  fc.record({
    kind: fc.constant('insert' as const),
    rows: fc.uniqueArray(fc.record({ id, name, price, day }), {
      selector: (r) => r.id,
      maxLength: 4,
    }),
  }),
  fc.record({
    kind: fc.constant('update' as const),
    range,
    name: fc.option(name),
    price: fc.option(price),
  }),
  fc.record({ kind: fc.constant('noChange' as const), range }),
  fc.record({ kind: fc.constant('delete' as const), range }),
  fc.record({ kind: fc.constant('keyChange' as const), id, by: fc.integer({ min: 1, max: 8 }) }),
  fc.record({ kind: fc.constant('truncate' as const) }),
);

const write = fc.oneof(
  fc.record({
    by: fc.constant('sql' as const),
    locked: fc.boolean(),
    statements: fc.array(statement, { minLength: 1, maxLength: 4 }),
  }),
  fc.record({
    by: fc.constant('grid' as const),
    edits: fc.uniqueArray(
      fc.record({ id, name: fc.option(name), price: fc.option(price), deleteIt: fc.boolean() }),
      { selector: (e) => e.id, minLength: 1, maxLength: 4 },
    ),
  }),
  fc.record({
    by: fc.constant('import' as const),
    rows: fc.uniqueArray(fc.record({ id, name, price, day }), {
      selector: (r) => r.id,
      minLength: 1,
      maxLength: 5,
    }),
  }),
);
type Write = typeof write extends fc.Arbitrary<infer W> ? W : never;
type Statement = typeof statement extends fc.Arbitrary<infer S> ? S : never;

function sqlOf(step: Statement): { text: string; values: unknown[] } {
  switch (step.kind) {
    case 'insert':
      return {
        text: `INSERT INTO ${TARGET} (id, name, price, day)
               SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(id int, name text, price numeric, day date)
               ON CONFLICT (id) DO NOTHING`,
        values: [JSON.stringify(step.rows)],
      };
    case 'update':
      return {
        text: `UPDATE ${TARGET} SET name = coalesce($3, name), price = CASE WHEN $4 THEN $5::numeric ELSE price END
               WHERE id BETWEEN $1 AND $2`,
        values: [...step.range, step.name, step.price !== null, step.price],
      };
    case 'noChange':
      return {
        text: `UPDATE ${TARGET} SET name = name WHERE id BETWEEN $1 AND $2`,
        values: [...step.range],
      };
    case 'delete':
      return { text: `DELETE FROM ${TARGET} WHERE id BETWEEN $1 AND $2`, values: [...step.range] };
    case 'keyChange':
      return {
        text: `UPDATE ${TARGET} SET id = id + $2 WHERE id = $1`,
        values: [step.id, step.by],
      };
    case 'truncate':
      return { text: `TRUNCATE ${TARGET}`, values: [] };
  }
}

async function rowsNow(): Promise<Map<number, string>> {
  const { rows } = await client.query<{ id: number; version: string }>(
    `SELECT id, xmin::text AS version FROM ${TARGET}`,
  );
  return new Map(rows.map((row) => [row.id, row.version]));
}

async function play(step: Write, token: string): Promise<void> {
  const { prisma } = database;
  const caller = { schema: MASTER_SCHEMA, tableName: TABLE, holder: 'alice', token };
  if (step.by === 'sql') {
    await client.query('BEGIN');
    try {
      if (step.locked) await client.query('SELECT tablelock.use_lock($1, $2)', [TABLE, token]);
      for (const one of step.statements) await client.query(sqlOf(one));
      await client.query('COMMIT');
    } catch {
      // A key change onto a taken key: the transaction is undone, in both captures alike.
      await client.query('ROLLBACK');
    }
    return;
  }
  if (step.by === 'import') {
    const lines = step.rows.map((r) => `${r.id},${r.name},${r.price ?? ''},${r.day ?? ''}`);
    const report = await dryRunImport(prisma, {
      ...caller,
      fileName: `${TABLE}.csv`,
      format: 'csv',
      content: Buffer.from(`id,name,price,day\r\n${lines.join('\r\n')}\r\n`),
    });
    await applyImport(prisma, { schema: MASTER_SCHEMA, id: report.id, holder: 'alice', token });
    return;
  }
  const now = await rowsNow();
  const values = (e: (typeof step.edits)[number]) =>
    Object.fromEntries(
      [
        ['name', e.name],
        ['price', e.price],
      ].filter(([, v]) => v !== null),
    );
  await saveRows(prisma, {
    ...caller,
    changes: {
      inserts: step.edits
        .filter((e) => !now.has(e.id))
        .map((e) => ({ values: { id: String(e.id), name: e.name ?? 'new', price: e.price } })),
      updates: step.edits
        .filter((e) => now.has(e.id) && !e.deleteIt && Object.keys(values(e)).length > 0)
        .map((e) => ({
          key: { id: String(e.id) },
          version: now.get(e.id) ?? '',
          values: values(e),
        })),
      deletes: step.edits
        .filter((e) => now.has(e.id) && e.deleteIt)
        .map((e) => ({ key: { id: String(e.id) }, version: now.get(e.id) ?? '' })),
    },
  });
}

/** What the history says, without what differs between two plays: ids, times and tokens. */
async function historyRead() {
  const { prisma } = database;
  const changeSet = <
    C extends { id: string; at: Date; token: string | null; revertsChangeId: string | null },
  >(
    c: C,
  ) => {
    const { id: _id, at: _at, token, revertsChangeId: _reverts, ...rest } = c;
    return { ...rest, token: token !== null };
  };
  const rows: Record<string, unknown[]> = {};
  for (const key of KEYS) {
    const page = await readRowHistory(
      prisma,
      MASTER_SCHEMA,
      TABLE,
      { id: String(key) },
      { first: 500 },
    );
    if (page.rows.length === 0) continue;
    rows[key] = page.rows.map(({ id: _id, changeSet: c, ...change }) => ({
      ...change,
      changeSet: changeSet(c),
    }));
  }
  const changes = (await readTableChanges(prisma, TABLE, { first: 100 })).changes.map(changeSet);
  const { rows: events } = await client.query(
    `SELECT rows_changed, details - 'changeSetId' AS details FROM tablelock.lock_event
     WHERE action = 'unlocked_write' AND table_name = $1 ORDER BY id`,
    [TABLE],
  );
  return { rows, changes, events };
}

async function playAll(capture: string, writes: Write[]) {
  await client.query(capture);
  await resetLockRegistry(database.prisma);
  await client.query(`TRUNCATE ${TARGET}`);
  await client.query('TRUNCATE tablelock.row_change, tablelock.change_set');
  await client.query(`DELETE FROM tablelock.lock_event WHERE action = 'unlocked_write'`);
  const token = grantedOrConflict(
    await acquireTableLock(database.prisma, {
      tableName: TABLE,
      editor: 'alice',
      leaseSeconds: 600,
    }),
  ).fencingToken;
  for (const step of writes) await play(step, token);
  return historyRead();
}

describe('history captured per statement', () => {
  it('reads as the capture before it read, for random saves, imports and SQL writes', async () => {
    let recorded = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(write, { minLength: 1, maxLength: 5 }), async (writes) => {
        const before = await playAll(BEFORE, writes);
        const now = await playAll(current, writes);
        expect(now).toEqual(before);
        recorded += before.changes.length;
      }),
      { numRuns: 15 },
    );
    // Not compared empty-handed: the runs recorded changes.
    expect(recorded).toBeGreaterThan(15);
  });
});
