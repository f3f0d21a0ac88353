import { Prisma, postgresErrorCode, type Queryable } from '@tablelock/db';
import { LockError } from '../core/lockError';
import type { EditorRights } from '../core/tableRules';
import type { Waiter } from '../core/waiter';
import { NOTIFY_EVENT } from '../sql/lockEvent';
import {
  LOCK_ACTION_TYPE,
  LOCK_EVENT,
  LOCK_WAITER,
  LOCK_WAITER_PLACE,
  ROLE_TYPE,
  TABLE_LOCK,
  TABLE_POLICY,
} from '../sql/registryTables';

export interface JoinLockQueue {
  tables: string[];
  /** A row scope's values of its one table; none: the whole tables. */
  rows?: string[];
  editor: string;
  actor: string;
  /** The application_name of this process's LISTEN connection: the waiter counts while it is connected. */
  owner: string;
  /** The editor's role and groups, for the table policy of who may edit; none: a trusted caller. */
  rights?: EditorRights;
  /**
   * Names the join, chosen before it is sent: the same for a retry of one request (its
   * idempotency key), so that a retry after a lost answer takes up the place the first made.
   */
  joinKey: string;
  /** Names this request's hold on the place: it leaves by it (see leaveLockQueue). */
  attempt: string;
}

/** A place in line: a new one, or one a retry of the same join took up (`adopted`). */
export interface LinePlace {
  waiter: Waiter;
  adopted: boolean;
}

/**
 * Whether a waiter counts: its process is connected (its LISTEN connection's application_name
 * is the waiter's owner) and its reservation, if any, has not run out. A crashed process or an
 * unused reservation holds nobody up, even before the sweeper removes it.
 */
export const WAITER_COUNTS = Prisma.sql`(w.reserved_until IS NULL OR w.reserved_until > now())
  AND EXISTS (SELECT 1 FROM pg_stat_activity AS a WHERE a.application_name = w.owner)`;

/**
 * Whether a waiter could be served at all: none of its tables is read-only, left out of
 * locking or frozen now, nor has a policy of who may edit that leaves the waiter out (an
 * admin's change after it joined). One that could not goes first for nobody: it would hold up
 * everyone behind it until it gives up.
 */
export const WAITER_SERVABLE = Prisma.sql`NOT EXISTS (
    SELECT 1 FROM ${TABLE_LOCK} AS wt LEFT JOIN ${TABLE_POLICY} AS wp ON wp.table_name = wt.table_name
    WHERE wt.table_name = ANY(w.tables)
      AND (coalesce(wp.read_only, false) OR NOT coalesce(wp.takes_part_in_locking, true)
           OR (wt.frozen_at IS NOT NULL AND (wt.frozen_until IS NULL OR wt.frozen_until > now()))
           OR (w.role IS NOT NULL AND w.role <> 'admin'
               AND cardinality(wp.edit_roles) + cardinality(wp.edit_groups) > 0
               AND w.role <> ALL(wp.edit_roles) AND NOT (w.groups && wp.edit_groups))))`;

const WAITER_COLUMNS = Prisma.sql`w.id::text AS id, w.tables, w."references",
  nullif(w.rows, '{}') AS rows, w.editor,
  w.since, w.reserved_until AS "reservedUntil"`;

/**
 * Whether waiter `w`, before `me` in line, wants only other values of the same one table than
 * `me` (both row scopes' waiters): then it goes first for `me` in nothing (docs/decisions/0021).
 * `meTables` and `meRows` are `me`'s tables and its scope's values (empty or null: whole tables).
 */
export function disjointScopes(meTables: Prisma.Sql, meRows: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(cardinality(w.rows) > 0 AND coalesce(cardinality(${meRows}), 0) > 0
    AND w.tables = ${meTables} AND NOT w.rows && ${meRows})`;
}

/** Records the waiter's line events, one per table, and announces them. */
const recordLineEvents = (action: 'queued' | 'dequeued', reason: string | null) => Prisma.sql`
  event AS (
    INSERT INTO ${LOCK_EVENT} (action, table_name, actor, editor, reason)
    SELECT ${action}::${LOCK_ACTION_TYPE}, t.name, w.actor, w.editor, ${reason}
    FROM waiter AS w, unnest(w.tables) AS t(name)
    RETURNING *
  ), announced AS (SELECT ${NOTIFY_EVENT} FROM event)`;

/**
 * Joins the end of the line for `tables` (recorded and announced as `queued`, per table). The
 * FK targets they will lock are read from the registry now, so that those who want one of them
 * later wait behind this waiter. One place per editor and table: ALREADY_IN_LINE when the editor
 * waits for one of `tables` already (two places would take two turns, keeping the table from
 * everyone else twice as long). The waiter claims its places in the statement that adds it, so
 * two joins at once, in any API processes, cannot both get one; a place left by a waiter that no
 * longer counts (its process died) is cleared and the join tried once more. A place made by an
 * earlier try of the same join (`joinKey`, same editor and tables) is taken up as it is, where
 * it stands in line: its answer was lost, so nobody else waits in it.
 */
export async function joinLockQueue(db: Queryable, request: JoinLockQueue): Promise<LinePlace> {
  const tables = [...new Set(request.tables)].sort();
  const adopted = await adoptWaiter(db, request, tables);
  if (adopted) return { waiter: adopted, adopted: true };
  try {
    return { waiter: await insertWaiter(db, request, tables), adopted: false };
  } catch (error) {
    if (postgresErrorCode(error) !== UNIQUE_VIOLATION) throw error;
    // Tried again even when this removal found none gone: a join beside this one may have
    // removed the same gone waiter first (after a failover, every place of a process not yet
    // back is gone at once), and counting what this one removed would refuse a free place.
    await removeGoneWaiters(db);
    try {
      return { waiter: await insertWaiter(db, request, tables), adopted: false };
    } catch (again) {
      if (postgresErrorCode(again) !== UNIQUE_VIOLATION) throw again;
    }
    throw new LockError(
      'ALREADY_IN_LINE',
      `${request.editor} waits in line for ${tables.length > 1 ? 'one of ' : ''}${tables.join(', ')} already; one place per person and table.`,
      { tables },
    );
  }
}

const UNIQUE_VIOLATION = '23505';

/** Takes up the place of an earlier try of the same join, for this process and request. */
async function adoptWaiter(
  db: Queryable,
  request: JoinLockQueue,
  tables: string[],
): Promise<Waiter | undefined> {
  const [waiter] = await db.$queryRaw<Waiter[]>`
    UPDATE ${LOCK_WAITER} AS w SET owner = ${request.owner}, attempt = ${request.attempt}
    WHERE w.join_key = ${request.joinKey} AND w.editor = ${request.editor}
      AND w.tables = ${tables}::text[] AND w.rows = ${request.rows ?? []}::text[]
    RETURNING ${WAITER_COLUMNS}`;
  return waiter;
}

async function insertWaiter(
  db: Queryable,
  request: JoinLockQueue,
  tables: string[],
): Promise<Waiter> {
  const [waiter] = await db.$queryRaw<Waiter[]>`
    WITH waiter AS (
      INSERT INTO ${LOCK_WAITER} AS w
        (tables, "references", rows, editor, actor, owner, role, groups, join_key, attempt)
      SELECT ${tables}::text[],
             coalesce(array_agg(DISTINCT ref ORDER BY ref) FILTER (WHERE ref <> ALL(${tables}::text[])), '{}'),
             ${request.rows ?? []}::text[], ${request.editor}, ${request.actor}, ${request.owner},
             ${request.rights?.role ?? null}::${ROLE_TYPE}, ${[...(request.rights?.groups ?? [])]}::text[],
             ${request.joinKey}, ${request.attempt}
      FROM ${TABLE_LOCK} LEFT JOIN LATERAL unnest("references") AS ref ON true
      WHERE table_name = ANY(${tables}::text[])
      RETURNING *
    ), place AS (
      INSERT INTO ${LOCK_WAITER_PLACE} (editor, table_name, waiter_id)
      SELECT w.editor, t.name, w.id FROM waiter AS w, unnest(w.tables) AS t(name)
      RETURNING waiter_id
    ), ${recordLineEvents('queued', null)}
    SELECT ${WAITER_COLUMNS} FROM waiter AS w,
      (SELECT count(*) FROM announced) AS n, (SELECT count(*) FROM place) AS p`;
  if (!waiter) throw new Error('Joining the line returned no row.');
  return waiter;
}

/**
 * Gives up the place `attempt` holds (recorded and announced as `dequeued`, per table, with
 * `reason`); false when it holds none: it left already, its join never committed, or a retry of
 * the same join took the place up since.
 */
export function leaveLockQueue(db: Queryable, attempt: string, reason: string): Promise<boolean> {
  return leaveWhere(db, Prisma.sql`attempt = ${attempt}`, reason);
}

/**
 * Gives up the place an earlier try of join `joinKey` left, if any: a retry that got the tables
 * at once (on that place, its editor's own) needs it no more.
 */
export function leaveEarlierJoin(db: Queryable, joinKey: string, reason: string): Promise<boolean> {
  return leaveWhere(db, Prisma.sql`join_key = ${joinKey}`, reason);
}

async function leaveWhere(db: Queryable, which: Prisma.Sql, reason: string): Promise<boolean> {
  const [left] = await db.$queryRaw<{ left: number }[]>`
    WITH waiter AS (
      DELETE FROM ${LOCK_WAITER} WHERE ${which} RETURNING *
    ), ${recordLineEvents('dequeued', reason)}
    SELECT (SELECT count(*) FROM waiter)::int AS left, (SELECT count(*) FROM announced)::int AS n`;
  return (left?.left ?? 0) > 0;
}

/**
 * Removes the waiters that no longer count (their process is gone, or their reservation ran
 * out), recorded and announced as `dequeued`: those behind them move up. Returns how many.
 */
export async function removeGoneWaiters(db: Queryable): Promise<number> {
  const [removed] = await db.$queryRaw<{ removed: number }[]>`
    WITH waiter AS (
      DELETE FROM ${LOCK_WAITER} AS w WHERE NOT (${WAITER_COUNTS}) RETURNING *
    ), event AS (
      INSERT INTO ${LOCK_EVENT} (action, table_name, actor, editor, reason)
      SELECT 'dequeued'::${LOCK_ACTION_TYPE}, t.name, w.actor, w.editor,
             CASE WHEN w.reserved_until <= now() THEN 'reservation expired' ELSE 'gone' END
      FROM waiter AS w, unnest(w.tables) AS t(name)
      RETURNING *
    ), announced AS (SELECT ${NOTIFY_EVENT} FROM event)
    SELECT (SELECT count(*) FROM waiter)::int AS removed, (SELECT count(*) FROM announced)::int AS n`;
  return removed?.removed ?? 0;
}

/** Everyone in line who counts and could be served, first in line first. */
export function readWaiters(db: Queryable): Promise<Waiter[]> {
  return db.$queryRaw<Waiter[]>`
    SELECT ${WAITER_COLUMNS} FROM ${LOCK_WAITER} AS w
    WHERE ${WAITER_COUNTS} AND ${WAITER_SERVABLE} ORDER BY w.id`;
}

/** Holds the waiter's tables for it for `seconds` from now; returns until when (null: it left). */
export async function reserveTurn(
  db: Queryable,
  waiterId: string,
  seconds: number,
): Promise<Date | null> {
  const [reserved] = await db.$queryRaw<{ until: Date }[]>`
    UPDATE ${LOCK_WAITER} SET reserved_until = now() + make_interval(secs => ${seconds})
    WHERE id = ${waiterId}::bigint
    RETURNING reserved_until AS until`;
  return reserved?.until ?? null;
}

/**
 * The nearest waiter before `waiterId` that goes first for it (the rule of lockScopeQuery's
 * waiters_ahead: it wants one of the same tables, one of the FK targets this one will lock, or
 * has one of this one's tables as its own FK target; not a scope of other values of this one's
 * scope's table), or null. While it is in line this waiter
 * cannot be served, so it need not look again until that one leaves: a release wakes the head of
 * the line, not everyone in it.
 */
export async function nearestWaiterAhead(db: Queryable, waiterId: string): Promise<Waiter | null> {
  const [ahead] = await db.$queryRaw<Waiter[]>`
    SELECT ${WAITER_COLUMNS}
    FROM ${LOCK_WAITER} AS me, ${LOCK_WAITER} AS w
    WHERE me.id = ${waiterId}::bigint AND w.id < me.id
      AND (w.tables && me.tables OR w.tables && me."references" OR w."references" && me.tables)
      AND NOT ${disjointScopes(Prisma.sql`me.tables`, Prisma.sql`me.rows`)}
      AND ${WAITER_COUNTS} AND ${WAITER_SERVABLE}
    ORDER BY w.id DESC
    LIMIT 1`;
  return ahead ?? null;
}
