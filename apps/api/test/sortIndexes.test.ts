import { planSortIndex } from '@tablelock/master-data';
import { createTestDatabase, MASTER_SCHEMA, type TestDatabase } from '@tablelock/test-support';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SortIndexes } from '../src/ports/sortIndexes';
import { createSortIndexes } from '../src/sortIndexes/sortIndexes';

const VIEWER = { actor: 'carol', ip: null, logger: pino({ level: 'silent' }) };

let database: TestDatabase;
let sortIndexes: SortIndexes;
const logLines: { level: number; msg: string; index?: string }[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  sortIndexes = createSortIndexes({
    enabled: true,
    prisma: database.prisma,
    masterSchema: MASTER_SCHEMA,
    directDatabaseUrl: database.url,
    logger: pino({ level: 'info' }, { write: (line: string) => logLines.push(JSON.parse(line)) }),
  });
});
afterAll(() => database.close());

/** The valid indexes of a master table, each as its name and key columns. */
async function indexesOf(table: string) {
  return database.prisma.$queryRaw<{ name: string; columns: string[] }[]>`
    SELECT ic.relname::text AS name,
           array(SELECT a.attname::text FROM unnest(i.indkey) WITH ORDINALITY AS k(attnum, n)
                 JOIN pg_attribute AS a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
                 ORDER BY k.n) AS columns
    FROM pg_index AS i JOIN pg_class AS ic ON ic.oid = i.indexrelid
    WHERE i.indrelid = ${`${MASTER_SCHEMA}.${table}`}::regclass AND i.indisvalid
    ORDER BY 1`;
}

describe('sort indexes', () => {
  it('builds one index on the sort column and the primary key, once', async () => {
    await Promise.all([
      sortIndexes.request('products', 'name', VIEWER),
      sortIndexes.request('products', 'name', VIEWER),
    ]);
    const built = (await indexesOf('products')).filter(({ name }) => name.startsWith('tlsort_'));
    expect(built).toEqual([
      { name: expect.stringMatching(/^tlsort_products_name_/), columns: ['name', 'id'] },
    ]);
    expect(logLines.filter((line) => line.msg === 'sort index built')).toHaveLength(1);
    expect(await planSortIndex(database.prisma, MASTER_SCHEMA, 'products', 'name')).toEqual({
      action: 'none',
      reason: 'indexed',
      ownIndex: built[0]?.name,
    });
  });

  it('leaves alone small tables and columns an index already starts with', async () => {
    const before = await indexesOf('products');
    await sortIndexes.request('products', 'sku', VIEWER);
    await sortIndexes.request('products', 'id', VIEWER);
    expect(await indexesOf('products')).toEqual(before);
    await sortIndexes.request('warehouses', 'name', VIEWER);
    expect((await indexesOf('warehouses')).map(({ name }) => name)).not.toContainEqual(
      expect.stringMatching(/^tlsort_/),
    );
  });

  it('replaces its own index left invalid by a build that failed half-way', async () => {
    const plan = await planSortIndex(database.prisma, MASTER_SCHEMA, 'products', 'supplier_id');
    if (plan.action !== 'build') throw new Error(`expected a build, got ${JSON.stringify(plan)}`);
    // A unique index on a column with repeats fails after its catalog entry is made.
    await expect(
      database.prisma.$executeRawUnsafe(
        `CREATE UNIQUE INDEX CONCURRENTLY "${plan.index}" ON master.products (supplier_id)`,
      ),
    ).rejects.toThrow(/could not create unique index/);
    const [left] = await database.prisma.$queryRaw<{ valid: boolean }[]>`
      SELECT i.indisvalid AS valid FROM pg_index AS i JOIN pg_class AS ic ON ic.oid = i.indexrelid
      WHERE ic.relname = ${plan.index}`;
    expect(left).toEqual({ valid: false });
    await sortIndexes.request('products', 'supplier_id', VIEWER);
    expect(await indexesOf('products')).toContainEqual({
      name: plan.index,
      columns: ['supplier_id', 'id'],
    });
  });

  it('logs a column it cannot index, and ignores names that are no master column', async () => {
    await database.prisma.$executeRawUnsafe('ALTER TABLE master.products ADD COLUMN extra json');
    await expect(sortIndexes.request('products', 'extra', VIEWER)).resolves.toBeUndefined();
    expect(logLines.at(-1)).toMatchObject({
      level: 40,
      msg: 'could not build a sort index; sorting by this column stays slower on large tables',
    });
    const lines = logLines.length;
    await expect(
      sortIndexes.request('products', 'no_such_column', VIEWER),
    ).resolves.toBeUndefined();
    await expect(sortIndexes.request('no_such_table', 'name', VIEWER)).resolves.toBeUndefined();
    expect(logLines).toHaveLength(lines);
  });
});
