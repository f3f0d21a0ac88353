import type { Queryable } from './prismaClient';

/** What a purge of one history deleted, as its security event says. */
export interface HistoryPurgeRecord {
  /** Which history: `lock history`, `security events`, `row history`. */
  subject: string;
  retentionDays: number;
  /** Entries deleted, by kind (`lockEvents`, `changeSets`, …). */
  deleted: Record<string, number>;
}

/**
 * Records a purge as a security event by `system`, in the transaction that deletes: nothing
 * leaves a history without a trace of how much and under which retention.
 */
export async function recordHistoryPurge(
  db: Queryable,
  { subject, retentionDays, deleted }: HistoryPurgeRecord,
): Promise<void> {
  await db.$executeRaw`
    INSERT INTO tablelock.security_event (action, actor, subject, details)
    VALUES ('history_purged', 'system', ${subject},
            ${JSON.stringify({ retentionDays, ...deleted })}::jsonb)`;
}
