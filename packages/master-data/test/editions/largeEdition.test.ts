import {
  acquireTableLock,
  grantedOrConflict,
  releaseTableLock,
  syncTableRegistry,
} from '@tablelock/lock';
import { createTestDatabase, MASTER_SCHEMA, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createEdition,
  dryRunImport,
  MasterDataError,
  readEditionRequests,
  saveRows,
  submitChangeRequest,
  syncWriteGuards,
} from '../../src';
import { applyEditionNow, makeDue } from '../support/dueEditions';

// Issue 44's Measure: an edition's rows are written set-based from the requests as stored. A
// request of thousands of rows keeps every guarantee of one of a few: each row checked against
// the version it was made on, and one changed row fails it all, named.
let database: TestDatabase;
const TABLE = 'edition_stock';
const ROWS = 5_000;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.prisma.$executeRawUnsafe(
    `CREATE TABLE ${MASTER_SCHEMA}.${TABLE} (id integer PRIMARY KEY, quantity integer NOT NULL)`,
  );
  await database.prisma.$executeRawUnsafe(
    `INSERT INTO ${MASTER_SCHEMA}.${TABLE} SELECT n, n FROM generate_series(1, ${ROWS}) AS n`,
  );
  await syncTableRegistry(database.prisma, MASTER_SCHEMA);
  await syncWriteGuards(database.prisma, MASTER_SCHEMA, 'RECORD');
});
afterAll(() => database.close());

async function lock(editor: string): Promise<string> {
  return grantedOrConflict(
    await acquireTableLock(database.prisma, { tableName: TABLE, editor, leaseSeconds: 600 }),
  ).fencingToken;
}

async function quantities(): Promise<{ total: number; first: number }> {
  const [row] = await database.prisma.$queryRawUnsafe<{ total: number; first: number }[]>(
    `SELECT sum(quantity)::int AS total, min(quantity) FILTER (WHERE id = 1) AS first
     FROM ${MASTER_SCHEMA}.${TABLE}`,
  );
  return row ?? { total: 0, first: 0 };
}

/**
 * A file that adds `step` to the quantity of every row (of `ids`): an import's dry run,
 * submitted.
 */
async function submitStockFile(editionId: string, step: number, ids = [1, ROWS]) {
  const [file] = await database.prisma.$queryRawUnsafe<{ csv: string }[]>(
    `SELECT string_agg(id || ',' || (quantity + ${step}), E'\\n' ORDER BY id) AS csv
     FROM ${MASTER_SCHEMA}.${TABLE} WHERE id BETWEEN $1 AND $2`,
    ...ids,
  );
  const token = await lock('alice');
  const dryRun = await dryRunImport(database.prisma, {
    schema: MASTER_SCHEMA,
    tableName: TABLE,
    holder: 'alice',
    token,
    fileName: 'stock.csv',
    format: 'csv',
    content: Buffer.from(`id,quantity\n${file?.csv ?? ''}\n`),
  });
  expect(dryRun.counts.update).toBe((ids[1] ?? 0) - (ids[0] ?? 0) + 1);
  const submitted = await submitChangeRequest(database.prisma, {
    schema: MASTER_SCHEMA,
    tableName: TABLE,
    author: 'alice',
    token,
    changes: null,
    importDryRunId: dryRun.id,
    comment: null,
    keepEditing: false,
    submittedBy: 'alice',
    submitters: [],
    editionId,
  });
  if (!submitted.request) throw new Error(JSON.stringify(submitted.rowErrors));
  return submitted.request;
}

async function dueEdition(name: string, step: number) {
  const edition = await createEdition(database.prisma, {
    name,
    effectiveAt: new Date(Date.now() + 3600_000),
    createdBy: 'alice',
  });
  const request = await submitStockFile(edition.id, step);
  return { edition, request };
}

const sumOfOneTo = (n: number) => (n * (n + 1)) / 2;

describe(`an edition of a request of ${ROWS} rows`, () => {
  it('with one row changed meanwhile, writes none of them and fails, naming that row', async () => {
    const { edition, request } = await dueEdition('stocktake', 10);
    const token = await lock('bob');
    const [row] = await database.prisma.$queryRawUnsafe<{ version: string }[]>(
      `SELECT xmin::text AS version FROM ${MASTER_SCHEMA}.${TABLE} WHERE id = 4321`,
    );
    await saveRows(database.prisma, {
      schema: MASTER_SCHEMA,
      tableName: TABLE,
      holder: 'bob',
      token,
      changes: {
        updates: [{ key: { id: '4321' }, version: row?.version ?? '', values: { quantity: '0' } }],
      },
    });
    await releaseTableLock(database.prisma, { tableName: TABLE, editor: 'bob', token });
    await makeDue(database.prisma, edition.id);
    const failed = await applyEditionNow(database.prisma, edition.id);
    expect(failed).toMatchObject({
      state: 'failed',
      failure: {
        reason: 'ROWS_CHANGED',
        rows: [{ tableName: TABLE, key: { id: '4321' }, code: 'ROW_CHANGED' }],
      },
    });
    expect(failed?.failure?.rows).toHaveLength(1);
    // Only bob's change: 4321 became 0, no row raised by 10.
    expect(await quantities()).toEqual({ total: sumOfOneTo(ROWS) - 4321, first: 1 });
    const [stored] = await readEditionRequests(database.prisma, edition.id);
    expect(stored).toMatchObject({
      id: request.id,
      state: 'failed',
      failure: { rows: [{ key: { id: '4321' }, code: 'ROW_CHANGED' }] },
    });
  });

  it('applies every row at its time, as kind scheduled naming the request, announced', async () => {
    const before = await quantities();
    const { edition, request } = await dueEdition('restock', 1);
    await makeDue(database.prisma, edition.id);
    expect(await applyEditionNow(database.prisma, edition.id)).toMatchObject({ state: 'applied' });
    expect(await quantities()).toEqual({ total: before.total + ROWS, first: before.first + 1 });
    expect(await readEditionRequests(database.prisma, edition.id)).toMatchObject([
      { id: request.id, state: 'applied' },
    ]);
    const sets = await database.prisma.changeSet.findMany({
      where: { changeRequestId: BigInt(request.id) },
    });
    expect(sets.map((set) => set.kind)).toEqual(['scheduled']);
    const set = sets[0];
    if (!set) throw new Error('no change set');
    const [recorded] = await database.prisma.$queryRaw<{ rows: number }[]>`
      SELECT count(*)::int AS rows FROM tablelock.recorded_row_change WHERE change_set_id = ${set.id}`;
    expect(recorded?.rows).toBe(ROWS);
    const [save, applied] = await database.prisma.lockEvent
      .findMany({
        where: { tableName: TABLE, action: { in: ['save', 'request_applied'] } },
        orderBy: { id: 'desc' },
        take: 2,
      })
      .then((events) => events.reverse());
    expect([save?.action, save?.rowsChanged]).toEqual(['save', ROWS]);
    expect([applied?.action, applied?.rowsChanged]).toEqual(['request_applied', ROWS]);
    // The save is announced by its change set; the request's end by its event.
    const announced = await database.prisma.outboxEvent.findMany({
      where: { OR: [{ changeSetId: set.id }, { lockEventId: applied?.id ?? 0n }] },
      orderBy: { id: 'asc' },
    });
    expect(announced.map((event) => event.type)).toEqual(['scheduled', 'change.applied']);
  });

  it('refuses a file over a row another request of the edition changes, naming both', async () => {
    const { edition, request } = await dueEdition('recount', 2);
    const error = await submitStockFile(edition.id, 3, [2500, 2500]).catch(
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(MasterDataError);
    expect(error).toMatchObject({
      code: 'BAD_USER_INPUT',
      details: { changeRequestId: request.id, key: '{"id":"2500"}' },
    });
    expect(await readEditionRequests(database.prisma, edition.id)).toHaveLength(1);
  });
});
