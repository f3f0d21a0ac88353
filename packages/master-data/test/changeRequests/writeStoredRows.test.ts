import { inTransaction } from '@tablelock/db';
import { acquireTableLock, grantedOrConflict, syncTableRegistry } from '@tablelock/lock';
import { createTestDatabase, MASTER_SCHEMA, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applyScheduledRequest,
  dryRunImport,
  type RowChanges,
  submitChangeRequest,
  syncWriteGuards,
} from '../../src';
import { writeStoredRows } from '../../src/changeRequests/writeStoredRows';
import { readMasterTable } from '../../src/tableColumns';

// A scheduled request is written from its rows as stored, set-based: every kind of change, each
// set of columns, an import's empty cells left to their defaults; a row that no longer saves is
// named by the row-by-row save.
let database: TestDatabase;
const TABLE = 'stored_items';

beforeAll(async () => {
  database = await createTestDatabase();
  await database.prisma.$executeRawUnsafe(
    `CREATE TABLE ${MASTER_SCHEMA}.${TABLE} (
       id integer PRIMARY KEY, name text NOT NULL, note text, qty integer NOT NULL DEFAULT 7)`,
  );
  await database.prisma.$executeRawUnsafe(
    `INSERT INTO ${MASTER_SCHEMA}.${TABLE} (id, name, qty)
     SELECT n, 'item ' || n, n FROM generate_series(1, 20) AS n`,
  );
  await syncTableRegistry(database.prisma, MASTER_SCHEMA);
  await syncWriteGuards(database.prisma, MASTER_SCHEMA, 'RECORD');
});
afterAll(() => database.close());

async function lock(): Promise<string> {
  return grantedOrConflict(
    await acquireTableLock(database.prisma, {
      tableName: TABLE,
      editor: 'alice',
      leaseSeconds: 600,
    }),
  ).fencingToken;
}

async function versionOf(id: number): Promise<string> {
  const [row] = await database.prisma.$queryRawUnsafe<{ version: string }[]>(
    `SELECT xmin::text AS version FROM ${MASTER_SCHEMA}.${TABLE} WHERE id = $1`,
    id,
  );
  return row?.version ?? '';
}

async function rowsOf(ids: number[]) {
  return database.prisma.$queryRawUnsafe<
    { id: number; name: string; note: string | null; qty: number }[]
  >(
    `SELECT id, name, note, qty FROM ${MASTER_SCHEMA}.${TABLE} WHERE id = ANY($1::int[]) ORDER BY id`,
    ids,
  );
}

/** alice's request for an hour from now: the grid's changes, or an import's dry run. */
async function schedule(changes: RowChanges | { csv: string }) {
  const token = await lock();
  const dryRun =
    'csv' in changes
      ? await dryRunImport(database.prisma, {
          schema: MASTER_SCHEMA,
          tableName: TABLE,
          holder: 'alice',
          token,
          fileName: 'items.csv',
          format: 'csv',
          content: Buffer.from(changes.csv),
        })
      : null;
  const submitted = await submitChangeRequest(database.prisma, {
    schema: MASTER_SCHEMA,
    tableName: TABLE,
    author: 'alice',
    token,
    changes: 'csv' in changes ? null : changes,
    importDryRunId: dryRun?.id ?? null,
    comment: null,
    keepEditing: false,
    submittedBy: 'alice',
    submitters: [],
    effectiveAt: new Date(Date.now() + 3600_000),
  });
  if (!submitted.request) throw new Error(JSON.stringify(submitted.rowErrors));
  return submitted.request;
}

const write = (id: string, fromImport: boolean) =>
  inTransaction(database.prisma, async (tx) =>
    writeStoredRows(tx, await readMasterTable(tx, MASTER_SCHEMA, TABLE), id, fromImport),
  );

async function applyNow(id: string) {
  await database.prisma.$executeRaw`
    UPDATE tablelock.change_request SET effective_at = now() - interval '1 second'
    WHERE id = ${id}::bigint`;
  return applyScheduledRequest(database.prisma, {
    schema: MASTER_SCHEMA,
    id,
    claimant: 'test',
    takeTable: async (tableName, editor) =>
      grantedOrConflict(
        await acquireTableLock(database.prisma, { tableName, editor, leaseSeconds: 600 }),
      ).fencingToken,
  });
}

describe('writeStoredRows', () => {
  it('writes deletes, updates and inserts of different columns, each row at its version', async () => {
    const request = await schedule({
      deletes: [{ key: { id: '3' }, version: await versionOf(3) }],
      updates: [
        { key: { id: '1' }, version: await versionOf(1), values: { name: 'one' } },
        { key: { id: '2' }, version: await versionOf(2), values: { name: 'two', note: 'n' } },
      ],
      inserts: [
        { values: { id: '31', name: 'new', qty: '5' } },
        { values: { id: '32', name: 'newer', note: null, qty: '6' } },
      ],
    });
    expect(await write(request.id, false)).toMatchObject({
      saved: true,
      inserted: 2,
      updated: 2,
      deleted: 1,
    });
    expect(await rowsOf([1, 2, 3, 31, 32])).toEqual([
      { id: 1, name: 'one', note: null, qty: 1 },
      { id: 2, name: 'two', note: 'n', qty: 2 },
      { id: 31, name: 'new', note: null, qty: 5 },
      { id: 32, name: 'newer', note: null, qty: 6 },
    ]);
    // Written: the same rows are no longer at the versions the request was made on.
    expect(await write(request.id, false)).toBeNull();
    expect(await rowsOf([3])).toEqual([]);
  });

  it("leaves an import's empty cell of a column with a default to the default", async () => {
    const request = await schedule({ csv: 'id,name,qty\n41,imported,\n5,five,50\n' });
    // The diff as the database stored it from the dry run: an update only of what changed.
    expect(request.rows).toEqual([
      {
        action: 'insert',
        key: { id: '41' },
        version: null,
        oldValues: null,
        newValues: { id: '41', name: 'imported', qty: null },
      },
      {
        action: 'update',
        key: { id: '5' },
        version: await versionOf(5),
        oldValues: { name: 'item 5', qty: '5' },
        newValues: { name: 'five', qty: '50' },
      },
    ]);
    // As grid changes, the empty cell is a NULL the column refuses: nothing is written.
    expect(await write(request.id, false)).toBeNull();
    expect(await rowsOf([5, 41])).toEqual([{ id: 5, name: 'item 5', note: null, qty: 5 }]);
    expect(await write(request.id, true)).toMatchObject({ saved: true, inserted: 1, updated: 1 });
    expect(await rowsOf([5, 41])).toEqual([
      { id: 5, name: 'five', note: null, qty: 50 },
      { id: 41, name: 'imported', note: null, qty: 7 },
    ]);
  });

  it('writes nothing when the table refuses a row now, and the request names it', async () => {
    const request = await schedule({
      updates: [
        { key: { id: '6' }, version: await versionOf(6), values: { qty: '600' } },
        { key: { id: '7' }, version: await versionOf(7), values: { qty: '8' } },
      ],
    });
    await database.prisma.$executeRawUnsafe(
      `ALTER TABLE ${MASTER_SCHEMA}.${TABLE} ADD CONSTRAINT small_qty CHECK (qty < 100) NOT VALID`,
    );
    expect(await applyNow(request.id)).toMatchObject({
      state: 'failed',
      failure: { reason: 'ROWS_CHANGED', rows: [{ key: { id: '6' }, code: 'CHECK' }] },
    });
    expect(await rowsOf([6, 7])).toEqual([
      { id: 6, name: 'item 6', note: null, qty: 6 },
      { id: 7, name: 'item 7', note: null, qty: 7 },
    ]);
  });
});
