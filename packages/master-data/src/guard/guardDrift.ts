import { type Queryable, quoteIdentifier } from '@tablelock/db';
import { GUARD_TRIGGERS, type WriteGuard } from './writeGuard';

/** A registered table whose triggers are not what its guard asks. */
export interface GuardDrift {
  tableName: string;
  /** Its policy's guard, else the default (WRITE_GUARD_DEFAULT); OFF for a table left out of the registry. */
  wanted: WriteGuard;
  /**
   * What its triggers do now; null when they are an incomplete or mixed set, or when one does
   * not fire always (ENABLE ALWAYS): a session with session_replication_role = replica would
   * pass it.
   */
  installed: WriteGuard | null;
}

/**
 * Every registered table whose triggers differ from its guard, from one catalog read: what a
 * sync must change, and after a sync, what it could not. A table the registry leaves out
 * (partitioned, a partition, table inheritance: see packages/lock, syncTableRegistry) wants
 * none: triggers it carries from before would claim a guard that writes to the rest of its
 * tree pass.
 */
export function readGuardDrift(
  db: Queryable,
  schema: string,
  defaultGuard: WriteGuard,
): Promise<GuardDrift[]> {
  return db.$queryRaw<GuardDrift[]>`
    SELECT t.table_name AS "tableName", wanted.guard AS wanted, installed.guard AS installed
    FROM (SELECT table_name, false AS left_out FROM tablelock.table_lock
          UNION ALL
          SELECT table_name, true FROM tablelock.left_out_table) AS t
    LEFT JOIN tablelock.table_policy AS p ON p.table_name = t.table_name
    CROSS JOIN LATERAL (
      SELECT CASE WHEN t.left_out THEN 'OFF' ELSE coalesce(p.write_guard::text, ${defaultGuard}) END
        AS guard) AS wanted
    CROSS JOIN LATERAL (
      SELECT CASE WHEN count(*) = 0 THEN 'OFF'
                  WHEN count(*) = ${GUARD_TRIGGERS.length}
                   AND count(DISTINCT encode(tg.tgargs, 'escape')) = 1
                   AND bool_and(tg.tgenabled = 'A')
                    THEN min(split_part(encode(tg.tgargs, 'escape'), '\\000', 1)) END AS guard
      FROM pg_trigger AS tg
      WHERE tg.tgrelid = to_regclass(format('%I.%I', ${schema}::text, t.table_name))
        AND tg.tgname = ANY (${[...GUARD_TRIGGERS]}::text[])) AS installed
    WHERE installed.guard IS DISTINCT FROM wanted.guard
    ORDER BY t.table_name`;
}

/**
 * The statement that lets `role` install the guard's triggers on a table: making them fire
 * always (ALTER TABLE … ENABLE ALWAYS TRIGGER), like dropping them, needs the table's ownership.
 */
export function installGrant(schema: string, tableName: string, role: string): string {
  return `ALTER TABLE ${quoteIdentifier(schema)}.${quoteIdentifier(tableName)} OWNER TO ${quoteIdentifier(role)};`;
}

/** The database role tablelock connects as: the one a GRANT must name. */
export async function currentRole(db: Queryable): Promise<string> {
  const [row] = await db.$queryRaw<{ role: string }[]>`SELECT current_user::text AS role`;
  return row?.role ?? 'tablelock';
}
