import { createTestDatabase, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrismaClient, type PrismaClient } from '../src';

let database: TestDatabase;
let prisma: PrismaClient;

beforeAll(async () => {
  database = await createTestDatabase();
  // One connection: a second transaction waits for the first's.
  prisma = createPrismaClient(database.url, { poolSize: 1 });
});
afterAll(async () => {
  await prisma.$disconnect();
  await database.close();
});

describe('a transaction behind a busy pool', () => {
  // A burst of requests on a busy machine: Prisma's default gave up on an interactive
  // transaction after 2 s in the pool's queue, while plain statements queued beside it waited.
  it('waits its turn for a connection, longer than 2 s, and runs', async () => {
    const first = prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_sleep(2.5)`;
      return 'first';
    });
    const second = prisma.$transaction(async (tx) => {
      const [row] = await tx.$queryRaw<{ answer: number }[]>`SELECT 42 AS answer`;
      return row?.answer;
    });
    expect(await Promise.all([first, second])).toEqual(['first', 42]);
  });
});
