import { createTestDatabase, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPrismaClient,
  MAX_PREPARED_STATEMENTS,
  Prisma,
  type PrismaClient,
  queryPrepared,
} from '../src';

let database: TestDatabase;
let prisma: PrismaClient;

beforeAll(async () => {
  database = await createTestDatabase();
  // One connection, so that every query below lands on the backend counted at the end.
  prisma = createPrismaClient(database.url, { poolSize: 1, preparedStatements: true });
});
afterAll(async () => {
  await prisma.$disconnect();
  await database.close();
});

const preparedOnConnection = async () =>
  (
    await prisma.$queryRaw<{ count: number }[]>`
      SELECT count(*)::int AS count FROM pg_prepared_statements`
  )[0]?.count;

const lookUpLock = () =>
  prisma.$queryRaw`SELECT table_name FROM tablelock.table_lock WHERE table_name = ${'products'}`;

const isPrepared = async (prefix: string) =>
  (
    await prisma.$queryRaw<{ count: number }[]>`
      SELECT count(*)::int AS count FROM pg_prepared_statements WHERE statement LIKE ${`${prefix}%`}`
  )[0]?.count === 1;

describe('prepared statements', () => {
  // A caller chooses the shape of some SQL (a grid's filters, in any order): each distinct text
  // must not become one more statement kept in every backend's memory for good, while the
  // fixed-shape statements that run from the start stay prepared.
  it('keeps a bounded number per connection, however many distinct texts run', async () => {
    await lookUpLock();
    for (let i = 0; i < MAX_PREPARED_STATEMENTS * 3; i++) {
      const columns = Prisma.raw(
        Array.from({ length: (i % 7) + 1 }, (_, c) => `${i + c} AS c${c}`).join(', '),
      );
      const [row] = await prisma.$queryRaw<{ c0: number }[]>`SELECT ${columns}, ${i}::int AS i`;
      expect(row?.c0).toBe(i);
    }
    await lookUpLock();
    expect(await preparedOnConnection()).toBeLessThanOrEqual(MAX_PREPARED_STATEMENTS);
    expect(
      await isPrepared('SELECT table_name FROM tablelock.table_lock WHERE table_name = $1'),
    ).toBe(true);
  });

  // The lock path's read and write run thousands of times a second: they are the statements
  // preparing pays for, and they must not lose their place to texts that ran before them.
  it('keeps a hot path statement prepared even when other texts took up the bound first', async () => {
    for (let i = 0; i < MAX_PREPARED_STATEMENTS + 10; i++) {
      await prisma.$queryRaw`SELECT ${i}::int AS i, ${Prisma.raw(String(i))} AS filler`;
    }
    const hot = Prisma.sql`SELECT version FROM tablelock.table_lock WHERE table_name = ${'regions'}`;
    const [row] = await queryPrepared<{ version: number }>(prisma, hot);
    expect(typeof row?.version).toBe('number');
    expect(await isPrepared('SELECT version FROM tablelock.table_lock WHERE table_name = $1')).toBe(
      true,
    );
  });

  it('runs a hot path statement unnamed on a client that keeps none (behind PgBouncer)', async () => {
    const unprepared = createPrismaClient(database.url, { poolSize: 1 });
    try {
      const hot = Prisma.sql`SELECT editor FROM tablelock.table_lock WHERE table_name = ${'regions'}`;
      await queryPrepared(unprepared, hot);
      const [row] = await unprepared.$queryRaw<{ count: number }[]>`
        SELECT count(*)::int AS count FROM pg_prepared_statements`;
      expect(row?.count).toBe(0);
    } finally {
      await unprepared.$disconnect();
    }
  });
});
