import { createTestDatabase, MASTER_SCHEMA, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RowPage, type RowQuery, type RowView, readRows } from '../src';

let database: TestDatabase;

// 230 rows whose sort columns repeat and are often NULL: pages must still split the ties.
const ROWS = 230;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.prisma.$executeRawUnsafe(`
    CREATE TABLE master.paging_probe (
      id integer PRIMARY KEY,
      colour text,
      score numeric(6, 1),
      label text NOT NULL
    )`);
  await database.prisma.$executeRawUnsafe(`
    INSERT INTO master.paging_probe
    SELECT i,
           (ARRAY['red', 'blue', NULL, 'green'])[1 + i % 4],
           CASE WHEN i % 5 = 0 THEN NULL ELSE (i * 7 % 11)::numeric / 2 END,
           format('label %s', i % 3)
    FROM generate_series(1, ${ROWS}) AS i`);
  await database.prisma.$executeRawUnsafe(
    'CREATE TABLE master.keyless_probe (code text, amount integer)',
  );
  await database.prisma.$executeRawUnsafe(
    `INSERT INTO master.keyless_probe VALUES ('a', 1), ('b', 2), ('a', 3)`,
  );
  await database.prisma.tableLock.createMany({
    data: [{ tableName: 'paging_probe' }, { tableName: 'keyless_probe' }],
  });
});
afterAll(() => database.close());

const read = (table: string, query: Partial<RowQuery>) =>
  readRows(database.prisma, MASTER_SCHEMA, table, {
    offset: 0,
    limit: 100,
    sort: [],
    filter: [],
    ...query,
  });

const ids = (page: { rows: { key: Record<string, string | null> }[] }) =>
  page.rows.map((row) => Number(row.key.id));

/** The whole view in one read: what paging must reproduce. */
const wholeView = async (view: RowView) => ids(await read('paging_probe', { ...view, limit: 500 }));

/**
 * The ids of every page, 7 rows a page, from `start` (or the view's first page) on, each read
 * by the cursor of the one before, until a short page ends the view in that direction.
 */
async function followCursors(view: RowView, way: 'after' | 'before', start: RowPage | null) {
  const seen = start ? ids(start) : [];
  let cursor = start && (way === 'after' ? start.endCursor : start.startCursor);
  for (let pages = 0; pages < ROWS; pages++) {
    const page = await read('paging_probe', { ...view, limit: 7, [way]: cursor });
    if (way === 'after') seen.push(...ids(page));
    else seen.unshift(...ids(page));
    if (page.rows.length < 7) return seen;
    cursor = way === 'after' ? page.endCursor : page.startCursor;
  }
  throw new Error('the cursors never reached the end of the view');
}

const VIEWS: [string, RowView][] = [
  ['no sort', { sort: [], filter: [] }],
  ['nullable text up', { sort: [{ column: 'colour', direction: 'asc' }], filter: [] }],
  ['nullable text down', { sort: [{ column: 'colour', direction: 'desc' }], filter: [] }],
  [
    'mixed directions, NULLs in both',
    {
      sort: [
        { column: 'score', direction: 'desc' },
        { column: 'colour', direction: 'asc' },
      ],
      filter: [],
    },
  ],
  [
    'key sorted down after a tie-heavy column',
    {
      sort: [
        { column: 'label', direction: 'asc' },
        { column: 'id', direction: 'desc' },
      ],
      filter: [],
    },
  ],
  [
    'filtered',
    {
      sort: [{ column: 'score', direction: 'asc' }],
      filter: [
        { column: 'colour', operator: 'notEquals', value: 'blue' },
        { column: 'label', operator: 'contains', value: 'label' },
      ],
    },
  ],
];

describe('keyset paging', () => {
  it.each(VIEWS)('reads every row exactly once, forwards and backwards: %s', async (_, view) => {
    const expected = await wholeView(view);
    expect(expected.length).toBeGreaterThan(100);

    expect(await followCursors(view, 'after', null)).toEqual(expected);
    const last = await read('paging_probe', { ...view, limit: 7, offset: expected.length - 7 });
    expect(await followCursors(view, 'before', last)).toEqual(expected);
  });

  it('gives the same offset pages from either end of the view', async () => {
    const view = VIEWS[3]?.[1] as RowView;
    const expected = await wholeView(view);
    for (const [offset, limit] of [
      [0, 10],
      [100, 13],
      [200, 25],
      [225, 10],
      [229, 1],
      [ROWS, 10],
      [ROWS + 50, 10],
    ] as const) {
      const page = await read('paging_probe', { ...view, offset, limit });
      expect(ids(page), `offset ${offset}`).toEqual(expected.slice(offset, offset + limit));
      expect(page.total).toBe(ROWS);
    }
  });

  it('continues the 100,000 products deep in a sort by name as offset paging does', async () => {
    const sort = [{ column: 'name', direction: 'asc' as const }];
    const deep = await read('products', { sort, offset: 99_850, limit: 50 });
    const next = await read('products', { sort, after: deep.endCursor, limit: 100 });
    const byOffset = await read('products', { sort, offset: 99_900, limit: 100 });
    expect(ids(next)).toEqual(ids(byOffset));
    expect(ids(next)).toHaveLength(100);
    const previous = await read('products', { sort, before: byOffset.startCursor, limit: 50 });
    expect(ids(previous)).toEqual(ids(deep));
  });

  it('refuses a cursor of another sort, filter or table, and malformed ones', async () => {
    const byColour = await read('paging_probe', {
      sort: [{ column: 'colour', direction: 'asc' }],
      limit: 5,
    });
    const cursor = byColour.endCursor;
    const refusals: Partial<RowQuery>[] = [
      { sort: [{ column: 'colour', direction: 'desc' }], after: cursor },
      {
        sort: [{ column: 'colour', direction: 'asc' }],
        filter: [{ column: 'score', operator: 'isNull' }],
        after: cursor,
      },
      { after: 'not a cursor' },
      { after: cursor, before: cursor },
      { after: cursor, offset: 5 },
    ];
    for (const query of refusals) {
      await expect(read('paging_probe', query)).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
    }
    await expect(
      read('products', { sort: [{ column: 'name', direction: 'asc' }], before: cursor }),
    ).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
  });

  it('refuses a forged cursor whose values do not fit the columns', async () => {
    const page = await read('paging_probe', { limit: 1 });
    const body = JSON.parse(Buffer.from(page.endCursor ?? '', 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...body, at: ['not a number'] })).toString(
      'base64url',
    );
    await expect(read('paging_probe', { after: forged })).rejects.toMatchObject({
      code: 'BAD_USER_INPUT',
    });
  });

  it('pages a table without a primary key by offset only', async () => {
    const sort = [{ column: 'amount', direction: 'desc' as const }];
    const page = await read('keyless_probe', { sort, offset: 2, limit: 5 });
    expect(page.rows.map((row) => row.values.amount)).toEqual(['1']);
    expect(page.endCursor).toBeNull();
    const byCursor = read('keyless_probe', { sort, after: 'eyJ2aWV3IjoiIiwiYXQiOltdfQ' });
    await expect(byCursor).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
  });
});
