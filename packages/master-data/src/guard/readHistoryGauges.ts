import type { Queryable } from '@tablelock/db';

/** What the row history holds now, for the metrics and the admin's view. */
export interface HistoryGauges {
  /** Unlocked writes (change sets of writes without the lock's token) kept in the history. */
  unlockedWrites: number;
  /** Disk the history takes: change sets and row changes (both forms), with their indexes. */
  historyBytes: number;
}

export async function readHistoryGauges(db: Queryable): Promise<HistoryGauges> {
  const [row] = await db.$queryRaw<HistoryGauges[]>`
    SELECT (SELECT count(*) FROM tablelock.change_set WHERE kind = 'unlocked_write')::int
             AS "unlockedWrites",
           (pg_total_relation_size('tablelock.change_set')
            + pg_total_relation_size('tablelock.row_change')
            + pg_total_relation_size('tablelock.row_change_batch'))::float8 AS "historyBytes"`;
  return row ?? { unlockedWrites: 0, historyBytes: 0 };
}
