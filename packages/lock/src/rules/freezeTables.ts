import { inTransaction, Prisma, type Queryable } from '@tablelock/db';
import { LockError } from '../core/lockError';
import { forceReleaseTableLock } from '../ops/forceReleaseTableLock';
import { EVENT_COLUMNS, NOTIFY_EVENT_TABLES_CHANGED } from '../sql/lockEvent';
import { LOCK_ACTION_TYPE, LOCK_EVENT, TABLE_LOCK } from '../sql/registryTables';

/**
 * What happens to those editing a table when it is frozen: they finish (may save, renew and
 * release, while nobody new starts), or their locks end at once with the freeze's reason.
 */
export type FreezeRule = 'waitForHolders' | 'endLocks';

/** Which tables: these (at least one), or every registered one. */
export type TableSelection = { tableNames: string[] } | { all: true };

export type FreezeTables = TableSelection & {
  reason: string;
  /** When the freeze ends by itself; null: when an admin thaws it. Must be in the future. */
  until: Date | null;
  rule: FreezeRule;
  /** The admin (or `cli`). */
  actor: string;
};

export interface FreezeOutcome {
  frozen: string[];
  /** Locks ended by the freeze (rule `endLocks`). */
  endedLocks: string[];
}

/**
 * Freezes tables: nobody may start editing them from the moment the freeze commits. One
 * transaction row-locks them in name order (as every lock change does), marks them frozen,
 * bumps their versions and records a `freeze` event per table, announced at commit. The version
 * bump is what makes it exact: an acquisition planned on a snapshot before the freeze fails its
 * conditional write, and one that waited for the row reads the freeze with it. Under `endLocks`
 * the holders' locks are then force-released with the freeze's reason (they are told as for any
 * force-release).
 */
export async function freezeTables(db: Queryable, request: FreezeTables): Promise<FreezeOutcome> {
  const reason = request.reason.trim();
  if (reason === '') throw new LockError('BAD_USER_INPUT', 'A freeze needs a reason.');
  const frozen = await inTransaction(db, async (tx) => {
    await requireTables(tx, request);
    if (request.until) await requireFuture(tx, request.until);
    return tx.$queryRaw<{ table_name: string; status: string }[]>`
      WITH chosen AS (
        SELECT table_name FROM ${TABLE_LOCK} WHERE ${selected(request)}
        ORDER BY table_name FOR UPDATE
      ), frozen AS (
        UPDATE ${TABLE_LOCK} AS t
        SET frozen_at = now(), frozen_by = ${request.actor}, frozen_reason = ${reason},
            frozen_until = ${request.until}::timestamptz, version = t.version + 1, updated_at = now()
        FROM chosen WHERE t.table_name = chosen.table_name
        RETURNING t.table_name, t.status::text AS status
      ), event AS (
        INSERT INTO ${LOCK_EVENT} ${EVENT_COLUMNS}
        SELECT 'freeze'::${LOCK_ACTION_TYPE}, table_name, ${request.actor}, NULL, NULL, ${reason}, NULL,
               ${JSON.stringify({ until: request.until, rule: request.rule })}::jsonb
        FROM frozen
        RETURNING *
      ), announced AS (
        SELECT ${NOTIFY_EVENT_TABLES_CHANGED} FROM event
      )
      SELECT table_name, status FROM frozen, (SELECT count(*) FROM announced) AS a
      ORDER BY table_name`;
  });
  const endedLocks: string[] = [];
  if (request.rule === 'endLocks') {
    for (const { table_name: tableName } of frozen.filter((row) => row.status === 'editing')) {
      if (await endLock(db, tableName, request.actor, `Frozen: ${reason}`)) {
        endedLocks.push(tableName);
      }
    }
  }
  return { frozen: frozen.map((row) => row.table_name), endedLocks };
}

export type ThawTables = TableSelection & { actor: string; reason?: string | null };

/** Ends the freezes of the chosen tables (those frozen), recorded and announced as `thaw`. */
export async function thawTables(db: Queryable, request: ThawTables): Promise<string[]> {
  await requireTables(db, request);
  return thawWhere(db, selected(request), request.actor, request.reason?.trim() || null);
}

/**
 * The sweeper's part: ends every freeze whose end time has passed (database clock), as
 * `system`. Safe from every API process at once: a row already thawed no longer matches.
 */
export function thawEndedFreezes(db: Queryable): Promise<string[]> {
  return thawWhere(db, Prisma.sql`frozen_until <= now()`, 'system', 'freeze ended');
}

async function thawWhere(
  db: Queryable,
  condition: Prisma.Sql,
  actor: string,
  reason: string | null,
): Promise<string[]> {
  const thawed = await db.$queryRaw<{ table_name: string }[]>`
    WITH chosen AS (
      SELECT table_name FROM ${TABLE_LOCK} WHERE frozen_at IS NOT NULL AND ${condition}
      ORDER BY table_name FOR UPDATE
    ), thawed AS (
      UPDATE ${TABLE_LOCK} AS t
      SET frozen_at = NULL, frozen_by = NULL, frozen_reason = NULL, frozen_until = NULL,
          version = t.version + 1, updated_at = now()
      FROM chosen WHERE t.table_name = chosen.table_name AND t.frozen_at IS NOT NULL
      RETURNING t.table_name
    ), event AS (
      INSERT INTO ${LOCK_EVENT} ${EVENT_COLUMNS}
      SELECT 'thaw'::${LOCK_ACTION_TYPE}, table_name, ${actor}, NULL, NULL, ${reason}, NULL, NULL
      FROM thawed
      RETURNING *
    ), announced AS (
      SELECT ${NOTIFY_EVENT_TABLES_CHANGED} FROM event
    )
    SELECT table_name FROM thawed, (SELECT count(*) FROM announced) AS a ORDER BY table_name`;
  return thawed.map((row) => row.table_name);
}

function selected(selection: TableSelection): Prisma.Sql {
  return 'all' in selection
    ? Prisma.sql`true`
    : Prisma.sql`table_name = ANY(${selection.tableNames}::text[])`;
}

/** Every named table is registered, and at least one is named; else nothing is done. */
async function requireTables(db: Queryable, selection: TableSelection): Promise<void> {
  if ('all' in selection) return;
  if (selection.tableNames.length === 0) {
    throw new LockError('BAD_USER_INPUT', 'Name at least one table, or all of them.');
  }
  const found = await db.$queryRaw<{ table_name: string }[]>`
    SELECT table_name FROM ${TABLE_LOCK} WHERE table_name = ANY(${selection.tableNames}::text[])`;
  const known = new Set(found.map((row) => row.table_name));
  const unknown = selection.tableNames.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new LockError('TABLE_NOT_FOUND', `No master table is named ${unknown.join(', ')}.`);
  }
}

async function requireFuture(db: Queryable, until: Date): Promise<void> {
  const [row] = await db.$queryRaw<{ past: boolean }[]>`
    SELECT ${until}::timestamptz <= now() AS past`;
  if (row?.past) throw new LockError('BAD_USER_INPUT', 'A freeze must end in the future.');
}

/** Force-releases a frozen table's holder; false if its editing ended meanwhile. */
async function endLock(
  db: Queryable,
  tableName: string,
  actor: string,
  reason: string,
): Promise<boolean> {
  try {
    const answer = await forceReleaseTableLock(db, { tableName, actor, reason });
    return 'granted' in answer;
  } catch (error) {
    if (error instanceof LockError && error.code === 'INVALID_TRANSITION') return false;
    throw error;
  }
}
