import type { Queryable } from '@tablelock/db';

/** A scheduled request or edition the scheduler may run: when, on the database's clock. */
export interface ScheduledDue {
  kind: 'request' | 'edition';
  id: string;
  /** Milliseconds until its time; 0 when due. */
  dueInMs: number;
}

/**
 * The next `limit` scheduled requests (those outside editions) and editions by time that
 * `claimant` may run: none claimed by another process still connected (it is applying them).
 * Times are measured on the database's clock, so that processes on machines whose clocks differ
 * agree on when one is due.
 */
export async function readScheduledRequests(
  db: Queryable,
  claimant: string,
  limit: number,
): Promise<ScheduledDue[]> {
  return db.$queryRaw<ScheduledDue[]>`
    SELECT kind, id, greatest(0, extract(epoch FROM effective_at - clock_timestamp()) * 1000)::float8
             AS "dueInMs"
    FROM (SELECT 'request' AS kind, r.id::text AS id, r.effective_at, r.claimed_by
          FROM tablelock.change_request AS r
          WHERE r.state = 'scheduled' AND r.edition_id IS NULL
          UNION ALL
          SELECT 'edition', e.id::text, e.effective_at, e.claimed_by
          FROM tablelock.edition AS e WHERE e.state = 'scheduled') AS due
    WHERE due.claimed_by IS NULL OR due.claimed_by = ${claimant}
       OR NOT EXISTS (SELECT 1 FROM pg_stat_activity AS a WHERE a.application_name = due.claimed_by)
    ORDER BY due.effective_at, due.kind, due.id
    LIMIT ${limit}`;
}
