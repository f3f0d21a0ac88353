import type { Queryable } from '@tablelock/db';
import { changeTableLock } from './changeTableLock';
import { TABLE_LOCK } from './registryTables';

/**
 * The sweeper's round: releases every editing lock whose lease has run out (database clock),
 * with its FK locks, recorded and announced as `expire` by `system`. Safe to run from every
 * API process at once: each expiry is one conditional write, so only one of them records it.
 * Returns the tables it expired.
 */
export async function expireLeases(db: Queryable): Promise<string[]> {
  const due = await db.$queryRaw<{ table_name: string }[]>`
    SELECT table_name FROM ${TABLE_LOCK}
    WHERE status = 'editing' AND lease_expires_at <= now()
    ORDER BY lease_expires_at`;
  const expired: string[] = [];
  for (const { table_name: tableName } of due) {
    const result = await changeTableLock(
      db,
      { kind: 'expire', tableName },
      { actor: 'system', reason: 'lease expired' },
    );
    if (result.written) expired.push(tableName);
  }
  return expired;
}
