import { Prisma, type Queryable } from '@tablelock/db';
import { idleExpired } from './idleLimitSql';
import { TABLE_LOCK } from './registryTables';

/** An editing lock that has ended in all but name: its lease ran out, or its holder went idle. */
export interface DeadLock {
  tableName: string;
  /** Ended by the idle limit (its lease is still running). */
  idle: boolean;
}

/**
 * The dead locks among `tables` (all tables when null), by the database clock, earliest lease
 * end first. A lock both idle and past its lease counts as expired: the lease is the older rule,
 * and the one legacy clients know.
 */
export function readDeadLocks(db: Queryable, tables: string[] | null): Promise<DeadLock[]> {
  return db.$queryRaw<DeadLock[]>`
    SELECT table_name AS "tableName", NOT coalesce(lease_expires_at <= now(), false) AS idle
    FROM ${TABLE_LOCK} AS table_lock
    WHERE status = 'editing' AND (lease_expires_at <= now() OR ${idleExpired('table_lock')})
      ${tables ? Prisma.sql`AND table_name = ANY(${tables}::text[])` : Prisma.empty}
    ORDER BY lease_expires_at`;
}
