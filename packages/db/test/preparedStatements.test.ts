import { createTestDatabase, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrismaClient, MAX_PREPARED_STATEMENTS, Prisma, type PrismaClient } from '../src';

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
});
