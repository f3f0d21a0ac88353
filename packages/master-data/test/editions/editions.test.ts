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
  editionEditor,
  MasterDataError,
  moveChangeRequest,
  readEditionRequests,
  saveRows,
  submitChangeRequest,
  syncWriteGuards,
} from '../../src';
import { applyEditionNow, makeDue } from '../support/dueEditions';

// Issue 44, outcome 2: an edition's requests over several tables are applied together at its
// time, all or nothing.
let database: TestDatabase;
const TABLES = ['edition_prices', 'edition_products', 'edition_suppliers'];
const alice = {
  name: 'alice',
  role: 'editor',
  groups: [],
  standsFor: [],
  standsForNobody: false,
} as const;

beforeAll(async () => {
  database = await createTestDatabase();
  for (const table of TABLES) {
    await database.prisma.$executeRawUnsafe(
      `CREATE TABLE ${MASTER_SCHEMA}.${table} (id integer PRIMARY KEY, name text NOT NULL)`,
    );
    await database.prisma.$executeRawUnsafe(
      `INSERT INTO ${MASTER_SCHEMA}.${table} VALUES (1, 'one'), (2, 'two')`,
    );
  }
  await syncTableRegistry(database.prisma, MASTER_SCHEMA);
  await syncWriteGuards(database.prisma, MASTER_SCHEMA, 'RECORD');
});
afterAll(() => database.close());

const inAnHour = () => new Date(Date.now() + 3600_000);

async function lock(table: string, editor: string): Promise<string> {
  return grantedOrConflict(
    await acquireTableLock(database.prisma, { tableName: table, editor, leaseSeconds: 600 }),
  ).fencingToken;
}

async function versionOf(table: string, id: number): Promise<string> {
  const [row] = await database.prisma.$queryRawUnsafe<{ version: string }[]>(
    `SELECT xmin::text AS version FROM ${MASTER_SCHEMA}.${table} WHERE id = $1`,
    id,
  );
  return row?.version ?? '';
}

async function nameOf(table: string, id: number): Promise<string | undefined> {
  const [row] = await database.prisma.$queryRawUnsafe<{ name: string }[]>(
    `SELECT name FROM ${MASTER_SCHEMA}.${table} WHERE id = $1`,
    id,
  );
  return row?.name;
}

/** alice's rename of row `id` of `table`, in edition `editionId`. */
async function submitRename(editionId: string, table: string, id: number, name: string) {
  const submitted = await submitChangeRequest(database.prisma, {
    schema: MASTER_SCHEMA,
    tableName: table,
    author: 'alice',
    token: await lock(table, 'alice'),
    changes: {
      updates: [{ key: { id: String(id) }, version: await versionOf(table, id), values: { name } }],
    },
    importDryRunId: null,
    comment: null,
    keepEditing: false,
    submittedBy: 'alice',
    submitters: [],
    editionId,
  });
  if (!submitted.request) throw new Error(JSON.stringify(submitted.rowErrors));
  return submitted.request;
}

async function editionOf(name: string) {
  return createEdition(database.prisma, { name, effectiveAt: inAnHour(), createdBy: 'alice' });
}

describe('editions', () => {
  it('applies the requests of three tables together at its time, as kind scheduled', async () => {
    const edition = await editionOf('spring range');
    const requests = [];
    for (const table of TABLES)
      requests.push(await submitRename(edition.id, table, 1, `${table} spring`));
    expect(requests.map((request) => request.effectiveAt)).toEqual(
      TABLES.map(() => edition.effectiveAt),
    );
    expect(await applyEditionNow(database.prisma, edition.id)).toBeNull();
    await makeDue(database.prisma, edition.id);
    expect(await applyEditionNow(database.prisma, edition.id)).toMatchObject({ state: 'applied' });
    for (const table of TABLES) expect(await nameOf(table, 1)).toBe(`${table} spring`);
    expect((await readEditionRequests(database.prisma, edition.id)).map((r) => r.state)).toEqual([
      'applied',
      'applied',
      'applied',
    ]);
    const sets = await database.prisma.changeSet.findMany({
      where: { changeRequestId: { in: requests.map((request) => BigInt(request.id)) } },
    });
    expect(sets.map((set) => set.kind)).toEqual(['scheduled', 'scheduled', 'scheduled']);
    // One transaction: the change sets share its start time.
    expect(new Set(sets.map((set) => set.at.getTime())).size).toBe(1);
    // Its locks end with its commit: no release after it, refused and recorded as denied.
    const denied = await database.prisma.lockEvent.count({
      where: { action: 'denied', editor: editionEditor(edition.id) },
    });
    expect(denied).toBe(0);
  });

  it('is applied by the run after one that took its tables and was cut off before releasing them (a failover)', async () => {
    const edition = await editionOf('leftover');
    for (const table of TABLES) {
      await database.prisma.$executeRawUnsafe(
        `INSERT INTO ${MASTER_SCHEMA}.${table} VALUES (3, 'three')`,
      );
      await submitRename(edition.id, table, 3, `${table} leftover`);
    }
    await makeDue(database.prisma, edition.id);
    // What such a run leaves: one of its tables held by the edition's own editor.
    await lock(TABLES[1] as string, editionEditor(edition.id));
    const applied = await applyEditionNow(database.prisma, edition.id);
    expect({ state: applied?.state, failure: applied?.failure }).toEqual({
      state: 'applied',
      failure: null,
    });
    for (const table of TABLES) expect(await nameOf(table, 3)).toBe(`${table} leftover`);
  });

  it('with one row changed meanwhile, applies nothing and fails, naming the row', async () => {
    const edition = await editionOf('summer range');
    for (const table of TABLES) await submitRename(edition.id, table, 2, `${table} summer`);
    const token = await lock('edition_products', 'bob');
    await saveRows(database.prisma, {
      schema: MASTER_SCHEMA,
      tableName: 'edition_products',
      holder: 'bob',
      token,
      changes: {
        updates: [
          {
            key: { id: '2' },
            version: await versionOf('edition_products', 2),
            values: { name: 'bob was here' },
          },
        ],
      },
    });
    await releaseTableLock(database.prisma, {
      tableName: 'edition_products',
      editor: 'bob',
      token,
    });
    await makeDue(database.prisma, edition.id);
    const failed = await applyEditionNow(database.prisma, edition.id);
    expect(failed).toMatchObject({
      state: 'failed',
      failure: {
        reason: 'ROWS_CHANGED',
        rows: [{ tableName: 'edition_products', key: { id: '2' }, code: 'ROW_CHANGED' }],
      },
    });
    expect(await nameOf('edition_prices', 2)).toBe('two');
    expect(await nameOf('edition_suppliers', 2)).toBe('two');
    expect(await nameOf('edition_products', 2)).toBe('bob was here');
    expect((await readEditionRequests(database.prisma, edition.id)).map((r) => r.state)).toEqual([
      'failed',
      'failed',
      'failed',
    ]);
  });

  it('refuses a table twice with overlapping rows, and a move of one of its requests', async () => {
    const edition = await editionOf('autumn range');
    const first = await submitRename(edition.id, 'edition_prices', 1, 'autumn');
    const error = await submitRename(edition.id, 'edition_prices', 1, 'autumn again').catch(
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(MasterDataError);
    expect(error).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect((error as Error).message).toContain(
      `Change request ${first.id} of edition ${edition.id}`,
    );
    await releaseTableLock(database.prisma, {
      tableName: 'edition_prices',
      editor: 'alice',
      token:
        (
          await database.prisma.tableLock.findUniqueOrThrow({
            where: { tableName: 'edition_prices' },
          })
        ).fencingToken?.toString() ?? '',
    });
    // Another row of the same table is fine.
    await submitRename(edition.id, 'edition_prices', 2, 'autumn two');
    const moved = await moveChangeRequest(database.prisma, {
      id: first.id,
      effectiveAt: inAnHour(),
      actor: alice,
    }).catch((thrown: unknown) => thrown);
    expect(moved).toMatchObject({ code: 'BAD_USER_INPUT' });
  });
});
