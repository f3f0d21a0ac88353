import type { PrismaClient, Queryable } from '@tablelock/db';

/** One of tablelock's sort indexes, by name, with the column it serves. */
export interface TrackedSortIndex {
  index: string;
  table: string;
  column: string;
}

/** A sort used `index` now; from now on its uses are noted. */
export async function trackSortIndex(db: Queryable, tracked: TrackedSortIndex): Promise<void> {
  await db.$executeRaw`
    INSERT INTO tablelock.sort_index (index_name, table_name, column_name)
    VALUES (${tracked.index}, ${tracked.table}, ${tracked.column})
    ON CONFLICT (index_name) DO UPDATE SET last_used_at = now()`;
}

/** A sort used `index` now; false when it is no longer tracked (it was dropped). */
export async function noteSortIndexUse(db: Queryable, index: string): Promise<boolean> {
  const updated = await db.$executeRaw`
    UPDATE tablelock.sort_index SET last_used_at = now() WHERE index_name = ${index}`;
  return updated > 0;
}

/** Sort indexes no sort used since `since`. */
export function sortIndexesUnusedSince(
  prisma: PrismaClient,
  since: Date,
): Promise<(TrackedSortIndex & { lastUsedAt: Date })[]> {
  return prisma.$queryRaw`
    SELECT index_name AS index, table_name AS table, column_name AS column,
           last_used_at AS "lastUsedAt"
    FROM tablelock.sort_index WHERE last_used_at < ${since} ORDER BY last_used_at`;
}

/**
 * Stops tracking `index` so that it can be dropped, unless a sort used it since `since`
 * (then it stays, and false).
 */
export async function untrackUnusedSortIndex(
  prisma: PrismaClient,
  index: string,
  since: Date,
): Promise<boolean> {
  const deleted = await prisma.$executeRaw`
    DELETE FROM tablelock.sort_index WHERE index_name = ${index} AND last_used_at < ${since}`;
  return deleted > 0;
}
