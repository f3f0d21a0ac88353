import type { Queryable } from '@tablelock/db';
import type { TableStatus } from '../core/tableStatus';
import { LOCK_WAITER, TABLE_LOCK } from '../sql/registryTables';

/** The registry at a glance, for monitoring. */
export interface LockGauges {
  tablesByStatus: Record<TableStatus, number>;
  /** How long the oldest current editing has lasted; 0 when nobody edits. */
  oldestLockAgeSeconds: number;
  /** Waiters in line, and how long the first of them has waited (0 when nobody waits). */
  waiters: number;
  longestWaitSeconds: number;
}

export async function readLockGauges(db: Queryable): Promise<LockGauges> {
  const [counts, [oldest], [line]] = await Promise.all([
    db.$queryRaw<{ status: TableStatus; count: number }[]>`
      SELECT status::text AS status, count(*)::int AS count FROM ${TABLE_LOCK} GROUP BY status`,
    db.$queryRaw<{ age: number | null }[]>`
      SELECT extract(epoch FROM now() - min(acquired_at))::float8 AS age
      FROM ${TABLE_LOCK} WHERE status = 'editing'`,
    db.$queryRaw<{ waiters: number; wait: number | null }[]>`
      SELECT count(*)::int AS waiters, extract(epoch FROM now() - min(since))::float8 AS wait
      FROM ${LOCK_WAITER}`,
  ]);
  const countOf = (status: TableStatus) => counts.find((row) => row.status === status)?.count ?? 0;
  return {
    tablesByStatus: {
      normal: countOf('normal'),
      editing: countOf('editing'),
      locked: countOf('locked'),
    },
    oldestLockAgeSeconds: oldest?.age ?? 0,
    waiters: line?.waiters ?? 0,
    longestWaitSeconds: line?.wait ?? 0,
  };
}
