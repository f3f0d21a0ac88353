import type { PrismaClient } from '@tablelock/db';

/** How many rows of master table `table` have this `id` (0 or 1): whether a save wrote it. */
export async function rowCount(prisma: PrismaClient, table: string, id: string): Promise<number> {
  const [row] = await prisma.$queryRawUnsafe<{ count: number }[]>(
    `SELECT count(*)::int AS count FROM master.${table} WHERE id = $1::int`,
    id,
  );
  return row?.count ?? -1;
}
