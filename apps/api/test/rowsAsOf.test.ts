import { acquireTableLock, grantedOrConflict, syncTableRegistry } from '@tablelock/lock';
import {
  type ChangeRequestRow,
  createEdition,
  type RowChanges,
  submitChangeRequest,
  syncWriteGuards,
} from '@tablelock/master-data';
import { createTestDatabase, MASTER_SCHEMA, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './generated';
import type { RowsAsOfQuery } from './generated/graphql';
import {
  acquireTableLockAs,
  refusal,
  releaseTableLockAs,
  saveRowsMutation,
} from './support/lockOperations';
import {
  execute,
  type GraphQLResponse,
  startTestApi,
  type TestApi,
  type TestClient,
} from './support/testApi';

// Issue 44: rows(asOf:) shows the table as the scheduled change requests will make it, and as
// the row history says it was, paged, sorted and filtered like today's rows.
let database: TestDatabase;
let api: TestApi;
let alice: TestClient;
let carol: TestClient;

const TABLE = 'as_of_items';
const RETENTION_DAYS = 30;
const DAY = 24 * 60 * 60 * 1000;

type Values = Record<string, string | null>;
type PageRow = RowsAsOfQuery['rows']['rows'][number];

const rowsAsOfQuery = graphql(`
  query RowsAsOf(
    $table: String!
    $asOf: DateTime
    $offset: Int
    $limit: Int
    $sort: [RowSort!]
    $filter: [RowFilter!]
    $after: String
  ) {
    rows(
      table: $table
      asOf: $asOf
      offset: $offset
      limit: $limit
      sort: $sort
      filter: $filter
      after: $after
    ) {
      total
      endCursor
      rows {
        key
        version
        values
        scheduledChanges {
          column
          changeRequestId
          effectiveAt
          oldValue
          newValue
        }
      }
    }
  }
`);

beforeAll(async () => {
  database = await createTestDatabase();
  await database.prisma.$executeRawUnsafe(`
    CREATE TABLE ${MASTER_SCHEMA}.${TABLE} (
      id int PRIMARY KEY, name text NOT NULL, price numeric(10,2), note text)`);
  await database.prisma.$executeRawUnsafe(`
    INSERT INTO ${MASTER_SCHEMA}.${TABLE}
    SELECT i, 'item ' || i, (i * 7 % 100)::numeric / 2, NULL FROM generate_series(1, 40) AS i`);
  await syncTableRegistry(database.prisma, MASTER_SCHEMA);
  // The guard's triggers record the history the past is rebuilt from.
  await syncWriteGuards(database.prisma, MASTER_SCHEMA, 'RECORD');
  api = await startTestApi(database, { historyRetentionDays: RETENTION_DAYS });
  [alice, carol] = await Promise.all([api.loginAs('alice'), api.loginAs('carol')]);
});
afterAll(async () => {
  await api?.stop();
  await database?.close();
});

async function databaseNow(): Promise<Date> {
  const [row] = await database.prisma.$queryRaw<{ now: Date }[]>`SELECT clock_timestamp() AS now`;
  if (!row) throw new Error('no clock');
  return row.now;
}

/** Every row of the table at `asOf` (or today), read page by page through `rows`'s cursors. */
async function allRows(asOf: Date | null, pageSize = 7): Promise<PageRow[]> {
  const rows: PageRow[] = [];
  let after: string | null = null;
  for (;;) {
    const response: GraphQLResponse<RowsAsOfQuery> = await execute(carol, rowsAsOfQuery, {
      table: TABLE,
      asOf: asOf?.toISOString() ?? null,
      limit: pageSize,
      after,
    });
    if (response.errors || !response.data) throw new Error(JSON.stringify(response.errors));
    const page: RowsAsOfQuery['rows'] = response.data.rows;
    rows.push(...page.rows);
    if (page.rows.length < pageSize || !page.endCursor) return rows;
    after = page.endCursor;
  }
}

const byId = (values: Values[]) =>
  [...values].sort((a, b) => Number(a.id) - Number(b.id)).map((row) => ({ ...row }));

/** The version of row `id` today: what a request's update or delete names. */
async function versionOf(id: number): Promise<string> {
  const [row] = await database.prisma.$queryRawUnsafe<{ version: string }[]>(
    `SELECT xmin::text AS version FROM ${MASTER_SCHEMA}.${TABLE} WHERE id = $1`,
    id,
  );
  if (!row) throw new Error(`no row ${id}`);
  return row.version;
}

/** alice's `changes`, scheduled for `effectiveAt` (or in `editionId`); the request's id. */
async function schedule(
  changes: RowChanges,
  when: { effectiveAt: Date } | { editionId: string },
): Promise<string> {
  const { prisma } = database;
  const token = grantedOrConflict(
    await acquireTableLock(prisma, { tableName: TABLE, editor: 'alice', leaseSeconds: 600 }),
  ).fencingToken;
  const submitted = await submitChangeRequest(prisma, {
    schema: MASTER_SCHEMA,
    tableName: TABLE,
    author: 'alice',
    token,
    changes,
    importDryRunId: null,
    comment: null,
    keepEditing: false,
    submittedBy: 'alice',
    submitters: [],
    ...when,
  });
  if (!submitted.request) throw new Error(JSON.stringify(submitted.rowErrors));
  expect(submitted.request.state).toBe('scheduled');
  return submitted.request.id;
}

/**
 * The reference: `today`'s rows with the scheduled requests due by `asOf` applied one by one in
 * TypeScript, in the order the scheduler runs them, from the diffs the requests stored.
 */
async function applyScheduled(today: Values[], asOf: Date): Promise<Values[]> {
  const requests = await database.prisma.changeRequest.findMany({
    where: { tableName: TABLE, state: 'scheduled', effectiveAt: { lte: asOf } },
    orderBy: [{ effectiveAt: 'asc' }, { id: 'asc' }],
  });
  const rows = new Map(today.map((row) => [row.id, { ...row }]));
  for (const request of requests) {
    for (const change of request.rows as unknown as ChangeRequestRow[]) {
      const id = change.key?.id ?? null;
      if (change.action === 'delete') rows.delete(id);
      else if (change.action === 'insert') {
        rows.set(id, { id: null, name: null, price: null, note: null, ...change.newValues });
      } else {
        const row = rows.get(id);
        if (row) Object.assign(row, change.newValues);
      }
    }
  }
  return [...rows.values()];
}

/** `numeric(10,2)` as the rows query writes it. */
const price = (value: number) => value.toFixed(2);

describe('rows(asOf:) ahead of now', () => {
  const ids: Record<string, string> = {};
  let now: Date;

  beforeAll(async () => {
    now = await databaseNow();
    const at = (days: number) => new Date(now.getTime() + days * DAY);
    ids.first = await schedule(
      {
        updates: [
          { key: { id: '3' }, version: await versionOf(3), values: { name: 'renamed once' } },
          { key: { id: '8' }, version: await versionOf(8), values: { price: '99.50' } },
        ],
        inserts: [{ values: { id: '100', name: 'new item', price: '1.25' } }],
      },
      { effectiveAt: at(1) },
    );
    ids.second = await schedule(
      {
        updates: [
          {
            key: { id: '3' },
            version: await versionOf(3),
            values: { name: 'renamed twice', note: 'second' },
          },
        ],
        deletes: [{ key: { id: '5' }, version: await versionOf(5) }],
      },
      { effectiveAt: at(2) },
    );
    const edition = await createEdition(database.prisma, {
      name: 'spring prices',
      effectiveAt: at(3),
      createdBy: 'alice',
    });
    ids.edition = await schedule(
      { updates: [{ key: { id: '12' }, version: await versionOf(12), values: { price: '0.00' } }] },
      { editionId: edition.id },
    );
    ids.later = await schedule(
      { updates: [{ key: { id: '1' }, version: await versionOf(1), values: { name: 'far' } }] },
      { effectiveAt: at(10) },
    );
  });

  it('applies every request due by then, in order, over all pages, and marks what they change', async () => {
    const today = (await allRows(null)).map((row) => row.values as Values);
    for (const days of [1.5, 5, 11]) {
      const asOf = new Date(now.getTime() + days * DAY);
      const future = await allRows(asOf);
      expect(byId(future.map((row) => row.values as Values))).toEqual(
        byId(await applyScheduled(today, asOf)),
      );
    }

    const future = await allRows(new Date(now.getTime() + 5 * DAY));
    const row = (id: string) => future.find((candidate) => candidate.key.id === id);
    expect(row('3')?.values).toMatchObject({ name: 'renamed twice', note: 'second' });
    expect(
      row('3')?.scheduledChanges.map(({ column, changeRequestId, oldValue, newValue }) => ({
        column,
        changeRequestId,
        oldValue,
        newValue,
      })),
    ).toEqual([
      { column: 'name', changeRequestId: ids.first, oldValue: 'item 3', newValue: 'renamed once' },
      {
        column: 'name',
        changeRequestId: ids.second,
        oldValue: 'renamed once',
        newValue: 'renamed twice',
      },
      { column: 'note', changeRequestId: ids.second, oldValue: null, newValue: 'second' },
    ]);
    expect(new Date(row('3')?.scheduledChanges[0]?.effectiveAt ?? 0).getTime()).toBe(
      now.getTime() + DAY,
    );
    expect(row('100')?.values).toEqual({
      id: '100',
      name: 'new item',
      price: '1.25',
      note: null,
    });
    expect(
      row('100')
        ?.scheduledChanges.map((change) => change.column)
        .sort(),
    ).toEqual(['id', 'name', 'price']);
    expect(row('5')).toBeUndefined();
    expect(row('12')?.scheduledChanges).toMatchObject([
      { column: 'price', changeRequestId: ids.edition, newValue: '0.00' },
    ]);
    expect(row('1')?.values.name).toBe('item 1');
    expect(row('1')?.scheduledChanges).toEqual([]);
    expect(row('2')?.scheduledChanges).toEqual([]);
  });

  it('sorts, filters, counts and pages by offset as the rows would be', async () => {
    const asOf = new Date(now.getTime() + 5 * DAY);
    const today = (await allRows(null)).map((row) => row.values as Values);
    const expected = (await applyScheduled(today, asOf))
      .filter((row) => row.price !== null && Number(row.price) >= 40)
      .sort((a, b) => Number(b.price) - Number(a.price) || Number(a.id) - Number(b.id));
    const filter = [{ column: 'price', operator: 'greaterThanOrEqual' as const, value: '40' }];
    const sort = [{ column: 'price', direction: 'desc' as const }];
    const pages: Values[] = [];
    for (let offset = 0; offset < expected.length + 4; offset += 4) {
      const response = await execute(carol, rowsAsOfQuery, {
        table: TABLE,
        asOf: asOf.toISOString(),
        offset,
        limit: 4,
        sort,
        filter,
      });
      expect(response.errors).toBeUndefined();
      expect(response.data?.rows.total).toBe(expected.length);
      pages.push(...(response.data?.rows.rows ?? []).map((row) => row.values as Values));
    }
    expect(pages).toEqual(expected);
    expect(pages.some((row) => row.id === '8' && row.price === '99.50')).toBe(true);
  });

  it('reads today within a few seconds of now, and writes nothing', async () => {
    const before = await allRows(null);
    const almostNow = await allRows(new Date((await databaseNow()).getTime() + 2000));
    expect(almostNow).toEqual(before);
    expect(almostNow.every((row) => row.scheduledChanges.length === 0)).toBe(true);
    expect(await allRows(null)).toEqual(before);
  });
});

describe('rows(asOf:) behind now', () => {
  it('rebuilds the rows as they were from the row history', async () => {
    const snapshot = async () => byId((await allRows(null)).map((row) => row.values as Values));
    const save = async (changes: RowChanges) => {
      const { token } = await acquireTableLockAs(alice, TABLE);
      const response = await execute(alice, saveRowsMutation, {
        table: TABLE,
        token,
        changes,
      });
      expect(response.errors).toBeUndefined();
      expect(response.data?.saveRows.saved).toBe(true);
      await releaseTableLockAs(alice, TABLE, token);
    };
    const before = await snapshot();
    const first = await databaseNow();
    await save({
      updates: [
        { key: { id: '20' }, version: await versionOf(20), values: { name: 'twenty', note: 'x' } },
        { key: { id: '21' }, version: await versionOf(21), values: { price: price(1) } },
      ],
      deletes: [{ key: { id: '22' }, version: await versionOf(22) }],
      inserts: [{ values: { id: '300', name: 'three hundred' } }],
    });
    const middle = await snapshot();
    const second = await databaseNow();
    await save({
      updates: [
        { key: { id: '20' }, version: await versionOf(20), values: { name: 'twenty again' } },
        { key: { id: '300' }, version: await versionOf(300), values: { price: price(3) } },
      ],
      deletes: [{ key: { id: '21' }, version: await versionOf(21) }],
      inserts: [{ values: { id: '22', name: 'twenty-two, new', price: price(22) } }],
    });
    // The history moves an hour back, and the times taken between the saves with it: far
    // enough behind now to be the past, without waiting for time to pass.
    await database.prisma.$executeRawUnsafe(
      `UPDATE tablelock.change_set SET at = at - interval '1 hour' WHERE table_name = $1`,
      TABLE,
    );
    const hourBack = (time: Date) => new Date(time.getTime() - 60 * 60 * 1000);
    const valuesAt = async (asOf: Date) =>
      byId((await allRows(asOf, 6)).map((row) => row.values as Values));

    expect(await valuesAt(hourBack(first))).toEqual(before);
    expect(await valuesAt(hourBack(second))).toEqual(middle);
    expect(await valuesAt(hourBack(new Date()))).toEqual(await snapshot());
  });

  it('refuses a time before the history is kept, saying how long that is', async () => {
    const response = await execute(carol, rowsAsOfQuery, {
      table: TABLE,
      asOf: new Date(Date.now() - (RETENTION_DAYS + 1) * DAY).toISOString(),
    });
    expect(refusal(response).code).toBe('BAD_USER_INPUT');
    expect(refusal(response).message).toContain(`${RETENTION_DAYS} days`);
  });
});

describe('rows(asOf:) refusals', () => {
  it('names an unknown table', async () => {
    const response = await execute(carol, rowsAsOfQuery, {
      table: 'no_such_table',
      asOf: new Date(Date.now() + DAY).toISOString(),
    });
    expect(refusal(response).code).toBe('TABLE_NOT_FOUND');
  });

  it('refuses a table without a primary key', async () => {
    await database.prisma.$executeRawUnsafe(
      `CREATE TABLE ${MASTER_SCHEMA}.as_of_keyless (name text)`,
    );
    await syncTableRegistry(database.prisma, MASTER_SCHEMA);
    const response = await execute(carol, rowsAsOfQuery, {
      table: 'as_of_keyless',
      asOf: new Date(Date.now() + DAY).toISOString(),
    });
    expect(refusal(response).code).toBe('BAD_USER_INPUT');
    expect(refusal(response).message).toContain('no primary key');
  });
});
