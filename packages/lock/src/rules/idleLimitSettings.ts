import type { Queryable } from '@tablelock/db';
import { LockError } from '../core/lockError';
import { isRegisteredTable } from '../sql/isRegisteredTable';
import { notAMasterTable } from '../sql/notAMasterTable';
import { LOCK_SETTINGS, TABLE_POLICY } from '../sql/registryTables';
import { readLockSettingsRow } from './lockSettingsRow';

/** The shortest idle limit an admin may set, unless the deployment allows shorter (tests). */
export const MIN_IDLE_LIMIT_SECONDS = 60;
export const MAX_IDLE_LIMIT_SECONDS = 86_400;

/** The idle limits in force: the global one, and those tables that have their own. */
export interface IdleLimits {
  globalSeconds: number;
  /** By table name; a table not here follows the global limit. */
  tables: Map<string, number>;
}

/** Who changes a limit, and the shortest limit this deployment allows. */
export interface IdleLimitChange {
  actor: string;
  minSeconds: number;
}

export async function readIdleLimits(db: Queryable): Promise<IdleLimits> {
  const [settings, policies] = await Promise.all([
    readLockSettingsRow(db),
    db.tablePolicy.findMany({ where: { idleLimitSeconds: { not: null } } }),
  ]);
  return idleLimitsOf(settings.idleLimitSeconds, policies);
}

/** The idle limits among rows read already: the global limit and table policies. */
export function idleLimitsOf(
  globalSeconds: number,
  policies: readonly { tableName: string; idleLimitSeconds: number | null }[],
): IdleLimits {
  const tables = new Map<string, number>();
  for (const { tableName, idleLimitSeconds } of policies) {
    if (idleLimitSeconds !== null) tables.set(tableName, idleLimitSeconds);
  }
  return { globalSeconds, tables };
}

/** The idle limit of `tableName` among `limits`. */
export function idleLimitOf(limits: IdleLimits, tableName: string): number {
  return limits.tables.get(tableName) ?? limits.globalSeconds;
}

/**
 * Sets the idle limit of every table without one of its own. Answers the limit before. Run it
 * in a transaction: the settings row stays locked from the read to the write, so concurrent
 * changes each report the one they replaced.
 */
export async function setGlobalIdleLimit(
  db: Queryable,
  seconds: number,
  change: IdleLimitChange,
): Promise<{ previousSeconds: number }> {
  const limit = checkedIdleLimit(seconds, change.minSeconds);
  const [row] = await db.$queryRaw<{ previous: number }[]>`
    SELECT idle_limit_seconds AS previous FROM ${LOCK_SETTINGS} FOR UPDATE`;
  if (!row) throw new Error('tablelock.lock_settings has no row.');
  await db.$executeRaw`
    UPDATE ${LOCK_SETTINGS}
    SET idle_limit_seconds = ${limit}, updated_at = now(), updated_by = ${change.actor}`;
  return { previousSeconds: row.previous };
}

/**
 * Sets `tableName`'s own idle limit, or with null lets it follow the global one again. Answers
 * its own limit before (null: it had none). Run it in a transaction, like setGlobalIdleLimit.
 */
export async function setTableIdleLimit(
  db: Queryable,
  tableName: string,
  seconds: number | null,
  change: IdleLimitChange,
): Promise<{ previousSeconds: number | null }> {
  const limit = seconds === null ? null : checkedIdleLimit(seconds, change.minSeconds);
  if (!(await isRegisteredTable(db, tableName))) throw await notAMasterTable(db, tableName);
  const [previous] = await db.$queryRaw<{ seconds: number | null }[]>`
    SELECT idle_limit_seconds AS seconds FROM ${TABLE_POLICY} WHERE table_name = ${tableName} FOR UPDATE`;
  await db.$executeRaw`
    INSERT INTO ${TABLE_POLICY} (table_name, idle_limit_seconds, updated_by)
    VALUES (${tableName}, ${limit}::int, ${change.actor})
    ON CONFLICT (table_name) DO UPDATE
    SET idle_limit_seconds = excluded.idle_limit_seconds, updated_at = now(),
        updated_by = excluded.updated_by`;
  return { previousSeconds: previous?.seconds ?? null };
}

function checkedIdleLimit(seconds: number, minSeconds: number): number {
  if (!Number.isInteger(seconds) || seconds < minSeconds || seconds > MAX_IDLE_LIMIT_SECONDS) {
    throw new LockError(
      'BAD_USER_INPUT',
      `The idle limit must be a whole number of seconds from ${minSeconds} to ${MAX_IDLE_LIMIT_SECONDS}.`,
    );
  }
  return seconds;
}
