import type { LockSettings, Queryable } from '@tablelock/db';

/**
 * The one row of lock settings. findFirst, not findUnique: Prisma batches the findUnique calls
 * of one tick into a single query with `id IN (…)`, which a Boolean id does not take, and every
 * call of the batch failed (settingsReadsAtOnce.test.ts).
 */
export function readLockSettingsRow(db: Queryable): Promise<LockSettings> {
  return db.lockSettings.findFirstOrThrow({ where: { id: true } });
}
