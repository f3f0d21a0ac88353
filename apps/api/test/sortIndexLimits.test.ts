import { syncTableRegistry } from '@tablelock/lock';
import { createTestDatabase, MASTER_SCHEMA, type TestDatabase } from '@tablelock/test-support';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSortIndexes } from '../src/sortIndexes/sortIndexes';
import { startSortIndexSweeper } from '../src/sortIndexes/sortIndexSweeper';
import { graphql } from './generated';
import { execute, startTestApi, type TestApi } from './support/testApi';

const COLUMNS = Array.from({ length: 13 }, (_, i) => `c${String(i + 1).padStart(2, '0')}`);
const CAROL = { actor: 'carol', ip: '127.0.0.1', logger: pino({ level: 'silent' }) };

let database: TestDatabase;
const warnings: { msg: string; err?: { code?: string } }[] = [];

/** One API process's sort indexes, with none remembered yet. */
function sortIndexesOfAProcess(limits: { maxPerTable?: number; retryFailedAfterMs?: number }) {
  const sortIndexes = createSortIndexes({
    enabled: true,
    prisma: database.prisma,
    masterSchema: MASTER_SCHEMA,
    directDatabaseUrl: database.url,
    logger: pino({ level: 'warn' }, { write: (line: string) => warnings.push(JSON.parse(line)) }),
    touchIntervalMs: 0,
    lockRetryMs: 20,
    ...limits,
  });
  return sortIndexes;
}

/** A master table of 10,000 rows (large enough for sort indexes) and 13 unindexed columns. */
async function createWideTable(name: string) {
  await database.prisma.$executeRawUnsafe(
    `CREATE TABLE master.${name} (id integer PRIMARY KEY, ${COLUMNS.map((c) => `${c} text`).join(', ')})`,
  );
  await database.prisma.$executeRawUnsafe(
    `INSERT INTO master.${name} SELECT i, ${COLUMNS.map((_, n) => `md5((i * ${n + 1})::text)`).join(', ')} FROM generate_series(1, 10000) AS i`,
  );
  await syncTableRegistry(database.prisma, MASTER_SCHEMA);
}

async function sortIndexesOn(table: string) {
  return database.prisma.$queryRaw<{ name: string; column: string; valid: boolean }[]>`
    SELECT ic.relname::text AS name, a.attname::text AS column, i.indisvalid AS valid
    FROM pg_index AS i JOIN pg_class AS ic ON ic.oid = i.indexrelid
    JOIN pg_attribute AS a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
    WHERE i.indrelid = ${`${MASTER_SCHEMA}.${table}`}::regclass AND ic.relname LIKE 'tlsort\\_%'
    ORDER BY 2`;
}

async function securityEvents(action: string, subject: string) {
  return database.prisma.$queryRaw<{ actor: string; ip: string | null; details: unknown }[]>`
    SELECT actor, ip, details FROM tablelock.security_event
    WHERE action::text = ${action} AND subject = ${subject} ORDER BY id`;
}

beforeAll(async () => {
  database = await createTestDatabase();
});
afterEach(() => {
  warnings.length = 0;
});
afterAll(() => database.close());

describe('sort index builds', () => {
  it('builds every index sorts on one table ask for at once, in two API processes, each once', async () => {
    await createWideTable('wide_parallel');
    const processes = [
      sortIndexesOfAProcess({ maxPerTable: 20 }),
      sortIndexesOfAProcess({ maxPerTable: 20 }),
    ];

    await Promise.all(
      processes.flatMap((sortIndexes) =>
        COLUMNS.map((column) => sortIndexes.request('wide_parallel', column, CAROL)),
      ),
    );

    expect(await sortIndexesOn('wide_parallel')).toEqual(
      COLUMNS.map((column) => ({ name: expect.stringMatching(/^tlsort_/), column, valid: true })),
    );
    expect(warnings).toEqual([]);
    expect(await securityEvents('sort_index_built', 'wide_parallel')).toHaveLength(COLUMNS.length);
  });

  it('builds no more indexes on a table than its cap; sorts by other columns stay unindexed', async () => {
    await createWideTable('wide_capped');
    const sortIndexes = sortIndexesOfAProcess({ maxPerTable: 3 });

    await Promise.all(COLUMNS.map((column) => sortIndexes.request('wide_capped', column, CAROL)));

    expect(await sortIndexesOn('wide_capped')).toHaveLength(3);
    expect(await securityEvents('sort_index_built', 'wide_capped')).toHaveLength(3);
  });

  it('tries a failed build again at a later sort, instead of remembering the failure', async () => {
    await createWideTable('wide_retry');
    // No btree operator class for json: the build fails until the column is jsonb.
    await database.prisma.$executeRawUnsafe(
      `ALTER TABLE master.wide_retry ALTER COLUMN c01 TYPE json USING to_json(c01)`,
    );
    const sortIndexes = sortIndexesOfAProcess({ retryFailedAfterMs: 0 });
    await sortIndexes.request('wide_retry', 'c01', CAROL);
    expect(await sortIndexesOn('wide_retry')).toEqual([]);

    await database.prisma.$executeRawUnsafe(
      `ALTER TABLE master.wide_retry ALTER COLUMN c01 TYPE jsonb`,
    );
    await sortIndexes.request('wide_retry', 'c01', CAROL);

    expect(await sortIndexesOn('wide_retry')).toEqual([
      { name: expect.stringMatching(/^tlsort_/), column: 'c01', valid: true },
    ]);
  });

  it('drops indexes no sort used since a given time, records it, and builds them again when asked', async () => {
    await createWideTable('wide_unused');
    const sortIndexes = sortIndexesOfAProcess({});
    await sortIndexes.request('wide_unused', 'c01', CAROL);
    await sortIndexes.request('wide_unused', 'c02', CAROL);
    const [{ now } = { now: new Date() }] = await database.prisma.$queryRaw<{ now: Date }[]>`
      SELECT clock_timestamp() AS now`;
    await sortIndexes.request('wide_unused', 'c02', CAROL);
    // Earlier tests' indexes, none used since either.
    const [earlier] = await database.prisma.$queryRaw<{ count: number }[]>`
      SELECT count(*)::int AS count FROM tablelock.sort_index WHERE table_name <> 'wide_unused'`;

    expect(await sortIndexes.dropUnused(now)).toBe((earlier?.count ?? 0) + 1);

    expect((await sortIndexesOn('wide_unused')).map(({ column }) => column)).toEqual(['c02']);
    expect(await securityEvents('sort_index_dropped', 'wide_unused')).toEqual([
      expect.objectContaining({
        actor: 'system',
        details: expect.objectContaining({
          changes: expect.objectContaining({
            column: 'c01',
            index: expect.stringMatching(/^tlsort_/),
          }),
        }),
      }),
    ]);
    await sortIndexes.request('wide_unused', 'c01', CAROL);
    expect((await sortIndexesOn('wide_unused')).map(({ column }) => column)).toEqual([
      'c01',
      'c02',
    ]);
  });
});

describe('the sort index sweeper', () => {
  it('drops, in the background, the indexes unused for its number of days', async () => {
    await createWideTable('wide_swept');
    const sortIndexes = sortIndexesOfAProcess({});
    await sortIndexes.request('wide_swept', 'c01', CAROL);
    expect(await sortIndexesOn('wide_swept')).toHaveLength(1);
    let swept = () => {};
    const sweptOnce = new Promise<void>((resolve) => {
      swept = resolve;
    });
    const logger = pino(
      { level: 'info' },
      {
        write: (line: string) => {
          if (JSON.parse(line).msg === 'dropped unused sort indexes') swept();
        },
      },
    );

    // No days at all: whatever was built before the sweep is unused.
    const stop = startSortIndexSweeper({ sortIndexes, logger, unusedDays: 0, intervalMs: 10 });
    await sweptOnce;
    await stop();

    expect(await sortIndexesOn('wide_swept')).toEqual([]);
  });
});

describe('sort index builds started by viewers', () => {
  let api: TestApi;
  afterAll(() => api?.stop());

  const rowsQuery = graphql(`
    query SortedRows($table: String!, $column: String!) {
      rows(table: $table, sort: [{ column: $column, direction: asc }], limit: 5) { total }
    }
  `);

  it('records who caused each build, from parallel sorts over HTTP', async () => {
    await createWideTable('wide_http');
    const sortIndexes = sortIndexesOfAProcess({ maxPerTable: 4 });
    api = await startTestApi(database, { sortIndexes });
    const carol = await api.loginAs('carol');

    const pages = await Promise.all(
      COLUMNS.map((column) => execute(carol, rowsQuery, { table: 'wide_http', column })),
    );
    expect(pages.map((page) => page.errors)).toEqual(COLUMNS.map(() => undefined));
    // The builds the pages started, awaited: asking again joins them.
    await Promise.all(COLUMNS.map((column) => sortIndexes.request('wide_http', column, CAROL)));

    expect(await sortIndexesOn('wide_http')).toHaveLength(4);
    expect(await securityEvents('sort_index_built', 'wide_http')).toEqual(
      Array(4).fill(
        expect.objectContaining({ actor: 'carol', ip: expect.stringMatching(/127\.0\.0\.1/) }),
      ),
    );
  });
});
