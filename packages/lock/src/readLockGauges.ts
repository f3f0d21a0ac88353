import type { Queryable, TableStatus } from '@tablelock/db';
import { TABLE_LOCK } from './registryTables';

/** The registry at a glance, for monitoring. */
export interface LockGauges {
  tablesByStatus: Record<TableStatus, number>;
  /** How long the oldest current editing has lasted; 0 when nobody edits. */
  oldestLockAgeSeconds: number;
}

export async function readLockGauges(db: Queryable): Promise<LockGauges> {
  const [counts, [oldest]] = await Promise.all([
    db.$queryRaw<{ status: TableStatus; count: number }[]>`
      SELECT status::text AS status, count(*)::int AS count FROM ${TABLE_LOCK} GROUP BY status`,
    db.$queryRaw<{ age: number | null }[]>`
      SELECT extract(epoch FROM now() - min(acquired_at))::float8 AS age
      FROM ${TABLE_LOCK} WHERE status = 'editing'`,
  ]);
  const countOf = (status: TableStatus) => counts.find((row) => row.status === status)?.count ?? 0;
  return {
    tablesByStatus: {
      normal: countOf('normal'),
      editing: countOf('editing'),
      locked: countOf('locked'),
    },
    oldestLockAgeSeconds: oldest?.age ?? 0,
  };
}
