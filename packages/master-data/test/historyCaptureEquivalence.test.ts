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
import { syncWriteGuards } from '../src';
import { type HistorySession, randomHistoryWrites } from './support/randomHistoryWrites';

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

let database: TestDatabase;
let client: pg.Client;
let current = '';
const session = {} as HistorySession;
const { write, play, historyRead } = randomHistoryWrites(TABLE, session);

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
  Object.assign(session, { database, client });
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

async function playAll(capture: string, writes: Parameters<typeof play>[0][]) {
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
