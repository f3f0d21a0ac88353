import type { Queryable } from '@tablelock/db';

/** A scheduled request the scheduler may run: when, on the database's clock. */
export interface ScheduledDue {
  id: string;
  /** Milliseconds until its time; 0 when due. */
  dueInMs: number;
}

/**
 * The next `limit` scheduled requests by time that `claimant` may run: none claimed by another
 * process still connected (it is applying them). Times are measured on the database's clock,
 * so that processes on machines whose clocks differ agree on when a request is due.
 */
export async function readScheduledRequests(
  db: Queryable,
  claimant: string,
  limit: number,
): Promise<ScheduledDue[]> {
  const rows = await db.$queryRaw<{ id: string; dueInMs: number }[]>`
    SELECT r.id::text AS id,
           greatest(0, extract(epoch FROM r.effective_at - clock_timestamp()) * 1000)::float8
             AS "dueInMs"
    FROM tablelock.change_request AS r
    WHERE r.state = 'scheduled'
      AND (r.claimed_by IS NULL OR r.claimed_by = ${claimant}
           OR NOT EXISTS (SELECT 1 FROM pg_stat_activity AS a
                          WHERE a.application_name = r.claimed_by))
    ORDER BY r.effective_at, r.id
    LIMIT ${limit}`;
  return rows;
}
