import {
  isPoolClient,
  noteConfirmedCommit,
  Prisma,
  type Queryable,
  queryPrepared,
} from '@tablelock/db';
import type { LockRow, LockRowChange } from '../core/lockRow';
import type { TableStatus } from '../core/tableStatus';
import { effectiveIdleLimit } from './idleLimitSql';
import { EVENT_COLUMNS, eventValues, type LockEventInput, notifyEvent } from './lockEvent';
import { LOCK_EVENT, NEXT_FENCING_TOKEN, TABLE_LOCK, TABLE_STATUS_TYPE } from './registryTables';

export interface CompareAndSetResult {
  written: boolean;
  /** Status of every expected row as the statement found it (before its own write). */
  statuses: Map<string, TableStatus>;
  /** The main table's token and lease after the write, when written and still editing. */
  fencingToken: string | null;
  leaseExpiresAt: Date | null;
  /** When the main table's holder last showed activity, after the write (editing only). */
  lastActiveAt: Date | null;
  /** The main table's idle limit, when its lock can go idle (editing with a lease). */
  idleLimitSeconds: number | null;
}

/**
 * The conditional write, in one statement and so all or nothing: row-locks every `expected`
 * row in name order, skipping rows another transaction holds (it never waits, so it cannot
 * deadlock), and only if it got all of them, each still at the version it was read at, writes
 * `changes` with new versions and records `event` (if any) in the audit history, announcing
 * it. Answers one row: `granted`, `written` (rows changed), `statuses` (each expected row's
 * status as the statement found it), and the token and lease of the main table (the event's,
 * else the first change's) after the write.
 */
export function compareAndSetQuery(
  expected: LockRow[],
  changes: LockRowChange[],
  event: LockEventInput | null,
): Prisma.Sql {
  const changesJson = JSON.stringify(
    changes.map(({ row, grant, leaseSeconds, active }) => ({
      table_name: row.tableName,
      status: row.status,
      editor: row.editor,
      locked_by: row.lockedBy,
      new_acquisition: grant ?? false,
      active: active ?? false,
      set_lease: leaseSeconds !== undefined,
      lease_seconds: leaseSeconds ?? null,
    })),
  );
  const mainTable = event?.tableName ?? changes[0]?.row.tableName ?? '';
  const previousToken = expected.find((row) => row.tableName === mainTable)?.fencingToken;
  return Prisma.sql`
    WITH ${expectedRows(expected)}, ${claimedAtVersions(Prisma.sql`expected`, Prisma.sql`${expected.length}`)}, written AS (
      UPDATE ${TABLE_LOCK} AS t
      SET status = u.status, editor = u.editor, locked_by = u.locked_by,
          fencing_token = CASE WHEN u.status <> 'editing' THEN NULL
                               WHEN u.new_acquisition THEN ${NEXT_FENCING_TOKEN}
                               ELSE t.fencing_token END,
          acquired_at = CASE WHEN u.status <> 'editing' THEN NULL
                             WHEN u.new_acquisition THEN now() ELSE t.acquired_at END,
          lease_expires_at = CASE WHEN u.status <> 'editing' THEN NULL
                                  WHEN u.set_lease THEN now() + make_interval(secs => u.lease_seconds)
                                  ELSE t.lease_expires_at END,
          last_active_at = CASE WHEN u.status <> 'editing' THEN NULL
                                WHEN u.new_acquisition OR u.active THEN now() ELSE t.last_active_at END,
          version = t.version + 1, updated_at = now()
      FROM jsonb_to_recordset(${changesJson}::jsonb)
             AS u(table_name text, status ${TABLE_STATUS_TYPE}, editor text, locked_by text[],
                  new_acquisition boolean, active boolean, set_lease boolean, lease_seconds int),
           granted
      WHERE granted.ok AND t.table_name = u.table_name
      RETURNING t.table_name, t.status, t.editor, t.locked_by, t.version, t.updated_at,
                t.acquired_at, t.fencing_token, t.lease_expires_at, t.last_active_at
    ), event AS (
      ${
        event
          ? Prisma.sql`INSERT INTO ${LOCK_EVENT} ${EVENT_COLUMNS}
              SELECT ${eventValues(
                event,
                Prisma.sql`coalesce((SELECT fencing_token FROM written WHERE table_name = ${mainTable}), ${previousToken ?? null}::bigint)`,
              )}
              FROM granted WHERE granted.ok
              RETURNING *`
          : Prisma.sql`SELECT * FROM ${LOCK_EVENT} WHERE false`
      }
    ), states AS (
      ${WRITTEN_STATES}
    ), announced AS (
      SELECT ${notifyEvent(Prisma.sql`(SELECT tables FROM states)`)} FROM event
    )
    SELECT (SELECT ok FROM granted) AS granted,
           (SELECT count(*) FROM written)::int AS written,
           (SELECT count(*) FROM announced)::int AS announced,
           (SELECT fencing_token::text FROM written WHERE table_name = ${mainTable}) AS fencing_token,
           (SELECT lease_expires_at FROM written WHERE table_name = ${mainTable}) AS lease_expires_at,
           (SELECT last_active_at FROM written WHERE table_name = ${mainTable}) AS last_active_at,
           (SELECT ${effectiveIdleLimit(Prisma.sql`written.table_name`)} FROM written
            WHERE table_name = ${mainTable} AND lease_expires_at IS NOT NULL) AS idle_limit_seconds,
           (SELECT coalesce(jsonb_object_agg(t.table_name, t.status), '{}')
            FROM ${TABLE_LOCK} AS t JOIN expected AS e ON e.table_name = t.table_name
           ) AS statuses`;
}

/** A registry row as a conditional write expects to find it: at the version it was read at. */
export interface ExpectedRow {
  tableName: string;
  version: number;
}

/** The CTE `expected` of a conditional write: `rows` (table_name, version), one JSON parameter. */
export function expectedRows(rows: readonly ExpectedRow[]): Prisma.Sql {
  const json = JSON.stringify(
    rows.map((row) => ({ table_name: row.tableName, version: row.version })),
  );
  return Prisma.sql`expected AS (
      SELECT * FROM jsonb_to_recordset(${json}::jsonb) AS e(table_name text, version int)
    )`;
}

/**
 * The CTEs `claimed` and `granted` of a conditional write: row-locks, in name order and without
 * waiting (skipping rows another transaction holds, so it cannot deadlock), every registry row
 * of the relation `expected` (table_name, version) still at its version; `granted.ok` when it got
 * all `count` of them. A row changed since the statement's snapshot is followed to its newest
 * version when locked, and then fails the version test: granted, the snapshot is current.
 */
export function claimedAtVersions(expected: Prisma.Sql, count: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`claimed AS (
      SELECT t.table_name FROM ${TABLE_LOCK} AS t
      JOIN ${expected} AS e ON e.table_name = t.table_name AND e.version = t.version
      ORDER BY t.table_name
      FOR UPDATE OF t SKIP LOCKED
    ), granted AS (
      SELECT count(*) = ${count} AS ok FROM claimed
    )`;
}

/**
 * The new lock state of every row `written` (a CTE of compareAndSetQuery), as a jsonb array by
 * name: what live events tell listeners, with the status each had before (reads of this statement
 * see the rows as they were). A locked table's editor is its first holder's, as
 * TableInfo has it — from `written` when the holder changed too (this statement's reads do not
 * see its own writes), else from the registry.
 */
const WRITTEN_STATES = Prisma.sql`
    SELECT coalesce(jsonb_agg(jsonb_build_object(
             'name', w.table_name, 'status', w.status, 'lockedBy', w.locked_by,
             'previousStatus', (SELECT t.status FROM ${TABLE_LOCK} AS t WHERE t.table_name = w.table_name),
             'editor', coalesce(w.editor, (
               SELECT holder.editor
               FROM (SELECT h.table_name, h.editor, 0 AS source FROM written AS h
                     UNION ALL
                     SELECT h.table_name, h.editor, 1 FROM ${TABLE_LOCK} AS h
                     WHERE h.table_name = w.locked_by[1]) AS holder
               WHERE holder.table_name = w.locked_by[1]
               ORDER BY holder.source LIMIT 1)),
             'version', w.version, 'updatedAt', w.updated_at, 'acquiredAt', w.acquired_at,
             'leaseExpiresAt', w.lease_expires_at) ORDER BY w.table_name), '[]'::jsonb) AS tables
    FROM written AS w`;

type CompareAndSetRow = {
  granted: boolean;
  written: number;
  fencing_token: string | null;
  lease_expires_at: Date | null;
  last_active_at: Date | null;
  idle_limit_seconds: number | null;
  statuses: Record<string, TableStatus>;
};

export async function compareAndSetLockRows(
  db: Queryable,
  expected: LockRow[],
  changes: LockRowChange[],
  event: LockEventInput | null,
): Promise<CompareAndSetResult> {
  const [result] = await queryPrepared<CompareAndSetRow>(
    db,
    compareAndSetQuery(expected, changes, event),
  );
  if (!result) throw new Error('The lock write returned no row.');
  if (result.granted && result.written !== changes.length) {
    throw new Error(`The lock write changed ${result.written} rows instead of ${changes.length}.`);
  }
  // Run alone, the statement was its own commit; having changed rows, it wrote WAL and so
  // waited for the synchronous standbys (a cut wait raises OutcomeUnknownError instead).
  if (result.granted && result.written > 0 && isPoolClient(db)) noteConfirmedCommit();
  return {
    written: result.granted,
    statuses: new Map(Object.entries(result.statuses)),
    fencingToken: result.fencing_token,
    leaseExpiresAt: result.lease_expires_at,
    lastActiveAt: result.last_active_at,
    idleLimitSeconds: result.idle_limit_seconds,
  };
}
