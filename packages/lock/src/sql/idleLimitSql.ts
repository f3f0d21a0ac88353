import { Prisma } from '@tablelock/db';
import { LOCK_SETTINGS, TABLE_POLICY } from './registryTables';

/** The history's reason for a lock the sweeper ended because its holder was idle too long. */
export const IDLE_REASON = 'idle';
/** The history's reason for a lock whose lease ran out. */
export const LEASE_EXPIRED_REASON = 'lease expired';

/**
 * The idle limit of the table named by `tableName` (an SQL expression): its policy's, else the
 * global setting.
 */
export function effectiveIdleLimit(tableName: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(SELECT coalesce(p.idle_limit_seconds, s.idle_limit_seconds)
    FROM ${LOCK_SETTINGS} AS s LEFT JOIN ${TABLE_POLICY} AS p ON p.table_name = ${tableName})`;
}

/**
 * Whether the editing lock in the `table_lock` row `alias` has outlived its idle limit (database
 * clock). Only locks with a lease go idle: a lock without expiry is an admin API key's explicit
 * choice to hold it until released, and never renews to report activity.
 */
export function idleExpired(alias: string): Prisma.Sql {
  const row = Prisma.raw(alias);
  return Prisma.sql`coalesce(${row}.status = 'editing' AND ${row}.lease_expires_at IS NOT NULL
    AND coalesce(${row}.last_active_at, ${row}.acquired_at)
        + make_interval(secs => ${effectiveIdleLimit(Prisma.sql`${row}.table_name`)}) <= now(), false)`;
}

/**
 * Whether the row scope in the `row_lock` row `alias` holds now (database clock): its lease has
 * not run out and, when it has one, its holder has not been idle past the table's idle limit. As
 * the write guard's `tablelock.scope_holds`.
 */
export function scopeHolds(alias: string): Prisma.Sql {
  const row = Prisma.raw(alias);
  return Prisma.sql`(coalesce(${row}.lease_expires_at > now(), true)
    AND NOT coalesce(${row}.lease_expires_at IS NOT NULL
      AND ${row}.last_active_at
          + make_interval(secs => ${effectiveIdleLimit(Prisma.sql`${row}.table_name`)}) <= now(), false))`;
}
