import { Prisma, type Queryable, queryPrepared } from '@tablelock/db';
import { LockError } from '../core/lockError';
import { claimedAtVersions, type ExpectedRow, expectedRows } from './compareAndSet';
import { GUARD_TRIGGERS } from './guardTriggers';
import { scopeHolds } from './idleLimitSql';
import {
  EVENT_COLUMNS,
  eventValues,
  type LockEventInput,
  NOTIFY_EVENT_TABLES_CHANGED,
} from './lockEvent';
import {
  LOCK_ACTION_TYPE,
  LOCK_EVENT,
  NEXT_FENCING_TOKEN,
  ROW_LOCK,
  TABLE_LOCK,
  TABLE_POLICY,
} from './registryTables';

/** A row scope as its holder is told of it. */
export interface RowScopeRow {
  table_name: string;
  editor: string;
  rows: string[];
  fencing_token: string;
  lease_expires_at: Date | null;
  last_active_at: Date;
}

const SCOPE_COLUMNS = Prisma.sql`table_name, editor, rows, fencing_token::text AS fencing_token,
  lease_expires_at, last_active_at`;

/**
 * The column whose values row scopes of `tableName` name (the database's one rule,
 * `tablelock.row_lock_column`): its policy's row-lock column, else its primary key when that is
 * one column; null when it has neither.
 */
export async function readRowLockColumn(
  db: Queryable,
  masterSchema: string,
  tableName: string,
): Promise<string | null> {
  const [row] = await db.$queryRaw<{ column: string | null }[]>`
    SELECT tablelock.row_lock_column(
      to_regclass(format('%I.%I', ${masterSchema}::text, ${tableName}::text)), ${tableName}) AS column`;
  return row?.column ?? null;
}

/** What a row scope of a table rests on: the column it names, and the guard keeping saves inside. */
export interface RowScopeGround {
  column: string | null;
  /** All four of the write guard's triggers are on the table (RECORD or ENFORCE). */
  guarded: boolean;
  /** Its changes need approval: change requests, which hold the whole table. */
  needsApproval: boolean;
}

/**
 * What row scopes of `tableName` rest on (see RowScopeGround), and `values` as the write guard
 * sees them (`column::text`), in order, once each: "011" of an integer column is "11", so that
 * two scopes naming one row in two spellings overlap. `invalid`: those that are no value of the
 * column's type (all, when it has no row-lock column).
 */
export async function readRowScopeGround(
  db: Queryable,
  masterSchema: string,
  tableName: string,
  values: string[],
): Promise<RowScopeGround & { values: string[]; invalid: string[] }> {
  const [row] = await queryPrepared<
    RowScopeGround & { read: { given: string; value: string | null }[] | null }
  >(
    db,
    Prisma.sql`
      SELECT ground.column, ground.guarded, ground."needsApproval",
             (SELECT jsonb_agg(jsonb_build_object('given', v.given, 'value', v.value))
              FROM tablelock.row_scope_values(
                     (SELECT format_type(a.atttypid, a.atttypmod) FROM pg_attribute AS a
                      WHERE a.attrelid = ground.relid AND a.attname = ground.column
                        AND NOT a.attisdropped),
                     ${values}::text[]) AS v
              WHERE ground.column IS NOT NULL) AS read
      FROM (${rowScopeGroundQuery(masterSchema, tableName)}) AS ground`,
  );
  const read = row?.read ?? values.map((given) => ({ given, value: null }));
  return {
    column: row?.column ?? null,
    guarded: row?.guarded ?? false,
    needsApproval: row?.needsApproval ?? false,
    values: [...new Set(read.flatMap(({ value }) => (value === null ? [] : [value])))].sort(),
    invalid: read.filter(({ value }) => value === null).map(({ given }) => given),
  };
}

/** The query of a table's RowScopeGround (and `relid`, the table's regclass): one row. */
function rowScopeGroundQuery(masterSchema: string, tableName: string): Prisma.Sql {
  return Prisma.sql`
    SELECT target.relid, tablelock.row_lock_column(target.relid, ${tableName}) AS column,
           (SELECT count(*) = 4 FROM pg_trigger AS t
            WHERE t.tgrelid = target.relid AND t.tgenabled <> 'D'
              AND t.tgname = ANY (${[...GUARD_TRIGGERS]}::text[])) AS guarded,
           coalesce((SELECT p.changes_need_approval FROM ${TABLE_POLICY} AS p
                     WHERE p.table_name = ${tableName}), false) AS "needsApproval"
    FROM (SELECT to_regclass(format('%I.%I', ${masterSchema}::text, ${tableName}::text)) AS relid)
      AS target`;
}

/** A row scope to take: its holder, values and lease, the column it was asked on, its event. */
export interface NewRowScope {
  editor: string;
  rows: string[];
  leaseSeconds: number | null;
  /** The row-lock column read before (see scopeGroundOf): checked again as it is written. */
  column: string;
  /** The `acquire` event's who, why and details. */
  event: Pick<LockEventInput, 'actor' | 'reason' | 'details'>;
}

/**
 * Takes a row scope in the caller's transaction, whose rows of the table and its FK targets it
 * has locked (see insertRowScopes). BAD_USER_INPUT, nothing taken, when its ground changed.
 */
export async function insertRowScope(
  db: Queryable,
  table: { tableName: string; masterSchema: string },
  scope: NewRowScope,
  fkTargets: string[],
): Promise<RowScopeRow> {
  const written = await insertRowScopes(db, table, [scope], fkTargets, []);
  if (written === 'contended') throw new Error('A write that expects no rows is never contended.');
  const [inserted] = written;
  if (!inserted) throw groundChanged(table.tableName);
  return inserted;
}

/** The answer to a scope whose table's policy or guard changed as it was being taken. */
export function groundChanged(tableName: string): LockError {
  return new LockError(
    'BAD_USER_INPUT',
    `${tableName}'s policy or write guard changed while the row scope was being taken; nothing was taken. Try again.`,
  );
}

/**
 * Takes row scopes of one table, disjoint, in one statement: each a new token and its `acquire`
 * event recorded and announced (listeners read the tables again); the table's version bumped (an
 * acquisition planned without them fails its conditional write), each FK target `locked` with
 * the table among its holders. `expected` empty: in the caller's transaction, whose rows of the
 * table and its FK targets it has locked. Else a conditional write on its own: only if it
 * row-locks every `expected` row, still at the version it was read at, without waiting
 * (skipping rows another transaction holds, as compareAndSetQuery does); else it writes nothing
 * and answers `contended`. The ground each was asked on is checked again here (a policy change
 * commits under the table's row lock, so none can come after): a scope whose ground changed is
 * not taken (null in its place).
 */
export async function insertRowScopes(
  db: Queryable,
  table: { tableName: string; masterSchema: string },
  scopes: NewRowScope[],
  fkTargets: string[],
  expected: ExpectedRow[],
): Promise<(RowScopeRow | null)[] | 'contended'> {
  const { tableName } = table;
  const askedJson = JSON.stringify(
    scopes.map((scope, index) => ({
      n: index,
      editor: scope.editor,
      rows: scope.rows,
      lease_seconds: scope.leaseSeconds,
      column_name: scope.column,
      actor: scope.event.actor,
      reason: scope.event.reason ?? null,
      details: scope.event.details ?? null,
    })),
  );
  const written = await queryPrepared<
    { granted: boolean; n: number | null } & {
      [column in keyof RowScopeRow]: RowScopeRow[column] | null;
    }
  >(
    db,
    Prisma.sql`
      WITH ground AS (${rowScopeGroundQuery(table.masterSchema, tableName)}
      ), ${expectedRows(expected)}, ${claimedAtVersions(Prisma.sql`expected`, Prisma.sql`${expected.length}`)}, asked AS (
        SELECT * FROM jsonb_to_recordset(${askedJson}::jsonb)
          AS a(n int, editor text, rows text[], lease_seconds int, column_name text, actor text,
               reason text, details jsonb)
      ), scope AS (
        INSERT INTO ${ROW_LOCK} (fencing_token, table_name, editor, rows, lease_expires_at)
        SELECT ${NEXT_FENCING_TOKEN}, ${tableName}, a.editor, a.rows,
               now() + make_interval(secs => a.lease_seconds)
        FROM asked AS a, ground, granted
        WHERE granted.ok AND ground.column = a.column_name AND ground.guarded
          AND NOT ground."needsApproval"
        ORDER BY a.n
        RETURNING *
      ), main AS (
        UPDATE ${TABLE_LOCK} SET version = version + 1, updated_at = now()
        WHERE table_name = ${tableName} AND EXISTS (SELECT 1 FROM scope)
      ), targets AS (
        UPDATE ${TABLE_LOCK}
        SET status = 'locked', editor = NULL,
            locked_by = ARRAY(SELECT DISTINCT unnest(locked_by || ${tableName}::text) ORDER BY 1),
            version = version + 1, updated_at = now()
        WHERE table_name = ANY(${fkTargets}::text[]) AND EXISTS (SELECT 1 FROM scope)
      ), event AS (
        INSERT INTO ${LOCK_EVENT} ${EVENT_COLUMNS}
        SELECT 'acquire'::${LOCK_ACTION_TYPE}, ${tableName}, a.actor, a.editor, scope.fencing_token,
               a.reason, NULL::int, a.details
        FROM scope JOIN asked AS a ON a.rows = scope.rows
        ORDER BY a.n
        RETURNING *
      ), announced AS (SELECT ${NOTIFY_EVENT_TABLES_CHANGED} FROM event)
      SELECT granted.ok AS granted, a.n, scope.table_name, scope.editor, scope.rows,
             scope.fencing_token::text AS fencing_token, scope.lease_expires_at,
             scope.last_active_at, (SELECT count(*) FROM announced) AS announced
      FROM granted LEFT JOIN (scope JOIN asked AS a ON a.rows = scope.rows) ON true`,
  );
  if (!written[0]?.granted) return 'contended';
  return scopes.map((_, index) => {
    const row = written.find((inserted) => inserted.n === index);
    return row ? (row as RowScopeRow) : null;
  });
}

/** Scope `token` of `tableName`, live or not, locked in the caller's transaction; null if none. */
export async function lockRowScope(
  db: Queryable,
  tableName: string,
  token: string,
): Promise<RowScopeRow | null> {
  const [scope] = await db.$queryRaw<RowScopeRow[]>`
    SELECT ${SCOPE_COLUMNS} FROM ${ROW_LOCK}
    WHERE fencing_token = ${token}::bigint AND table_name = ${tableName}
    FOR UPDATE`;
  return scope ?? null;
}

/**
 * The caller's scope `token` of `tableName`, alive (its lease not run out), its rows locked in
 * the caller's transaction until it ends; null when there is none.
 */
export async function lockLiveRowScope(
  db: Queryable,
  tableName: string,
  token: string,
): Promise<RowScopeRow | null> {
  const [scope] = await db.$queryRaw<RowScopeRow[]>`
    SELECT ${SCOPE_COLUMNS} FROM ${ROW_LOCK} AS row_lock
    WHERE fencing_token = ${token}::bigint AND table_name = ${tableName}
      AND ${scopeHolds('row_lock')}
    FOR UPDATE`;
  return scope ?? null;
}

/**
 * The values of live scope `token` of `tableName` when `editor` holds it, else null; its row
 * share-locked until the caller's transaction ends (a release, force release or expiry waits).
 */
export async function holdsRowScope(
  db: Queryable,
  scope: { tableName: string; editor: string; token: string },
): Promise<string[] | null> {
  const [held] = await db.$queryRaw<{ rows: string[] }[]>`
    SELECT rows FROM ${ROW_LOCK} AS row_lock
    WHERE fencing_token = ${scope.token}::bigint AND table_name = ${scope.tableName}
      AND editor = ${scope.editor} AND ${scopeHolds('row_lock')}
    FOR SHARE`;
  return held?.rows ?? null;
}

/**
 * Whether `token` was given for a row scope of `tableName` (held, or ended: its acquisition
 * says so), not for the whole table. The table's current token is looked at first, then the
 * scopes, each by its key: the history only for a token that is neither.
 */
export async function isRowScopeToken(
  db: Queryable,
  tableName: string,
  token: string,
): Promise<boolean> {
  const [found] = await db.$queryRaw<{ row: boolean }[]>`
    SELECT CASE
      WHEN EXISTS (SELECT 1 FROM ${TABLE_LOCK}
                   WHERE table_name = ${tableName} AND fencing_token = ${token}::bigint) THEN false
      WHEN EXISTS (SELECT 1 FROM ${ROW_LOCK}
                   WHERE fencing_token = ${token}::bigint AND table_name = ${tableName}) THEN true
      ELSE EXISTS (SELECT 1 FROM ${LOCK_EVENT}
                   WHERE table_name = ${tableName} AND token = ${token}::bigint
                     AND action = 'acquire' AND details ? 'rows')
    END AS row`;
  return found?.row ?? false;
}

/** Moves the lease of a live scope forward; `active`: its idle time starts again. */
export async function renewRowScopeLease(
  db: Queryable,
  scope: { tableName: string; token: string; editor: string },
  leaseSeconds: number | null,
  active: boolean,
): Promise<RowScopeRow | null> {
  const [renewed] = await db.$queryRaw<RowScopeRow[]>`
    UPDATE ${ROW_LOCK} AS row_lock
    SET lease_expires_at = now() + make_interval(secs => ${leaseSeconds}::int),
        last_active_at = CASE WHEN ${active} THEN now() ELSE last_active_at END
    WHERE fencing_token = ${scope.token}::bigint AND table_name = ${scope.tableName}
      AND editor = ${scope.editor} AND ${scopeHolds('row_lock')}
    RETURNING ${SCOPE_COLUMNS}`;
  return renewed ?? null;
}

/**
 * Ends scope `token` in the caller's transaction, whose rows of the table and every table it
 * holds locked it has locked: deletes it, and when it was the table's last scope, takes the table
 * out of each FK target's holders (a target none holds is `normal` again). Records and announces
 * `event`. False when the scope was gone already.
 */
export async function deleteRowScope(
  db: Queryable,
  tableName: string,
  token: string,
  event: Omit<LockEventInput, 'token'>,
): Promise<boolean> {
  const [deleted] = await db.$queryRaw<
    { ended: boolean }[]
  >`${deleteRowScopeQuery(tableName, token, event)}`;
  return deleted?.ended ?? false;
}

/** Of scopes asked to end by their holders: per scope, whether it ended; or `contended`. */
export type HeldScopesEnded = ('ended' | 'notHeld')[] | 'contended';

/**
 * Ends live scopes of `tableName`, each its `editor`'s, as deleteRowScope does, each recorded as
 * `release` by its `actor` with the scope's values, in one conditional write on its own: it reads
 * the registry rows ending a scope touches (scopeRowsWhere) and row-locks them without waiting
 * (skipping rows another transaction holds, as compareAndSetQuery does); only if it gets each of
 * them at the version it read (none changed since the statement's snapshot, which every change
 * of the table's scopes would show) does it write. `contended` when it could not, and nothing
 * was written; else, per scope, `notHeld` when it was not live or not the editor's.
 */
export async function deleteHeldRowScopes(
  db: Queryable,
  tableName: string,
  scopes: { token: string; editor: string; actor: string }[],
): Promise<HeldScopesEnded> {
  const askedJson = JSON.stringify(scopes.map((scope, index) => ({ n: index, ...scope })));
  const [deleted] = await queryPrepared<{ granted: boolean; ended: number[] }>(
    db,
    Prisma.sql`
      WITH touched AS (
        SELECT table_name, version FROM ${TABLE_LOCK} WHERE ${scopeRowsWhere(tableName)}
      ), ${claimedAtVersions(Prisma.sql`touched`, Prisma.sql`(SELECT count(*) FROM touched)`)}, asked AS (
        SELECT * FROM jsonb_to_recordset(${askedJson}::jsonb)
          AS a(n int, token bigint, editor text, actor text)
      ), scope AS (
        DELETE FROM ${ROW_LOCK} AS row_lock USING asked AS a
        WHERE row_lock.fencing_token = a.token AND row_lock.table_name = ${tableName}
          AND row_lock.editor = a.editor AND ${scopeHolds('row_lock')}
          AND (SELECT ok FROM granted)
        RETURNING row_lock.fencing_token, row_lock.rows, row_lock.editor, a.n, a.actor
      ), ${scopesEndedWrites(tableName)}, event AS (
        INSERT INTO ${LOCK_EVENT} ${EVENT_COLUMNS}
        SELECT 'release'::${LOCK_ACTION_TYPE}, ${tableName}, scope.actor, scope.editor,
               scope.fencing_token, NULL, NULL::int, jsonb_build_object('rows', scope.rows)
        FROM scope ORDER BY scope.n
        RETURNING *
      ), announced AS (SELECT ${NOTIFY_EVENT_TABLES_CHANGED} FROM event)
      SELECT (SELECT ok FROM granted) AS granted,
             (SELECT coalesce(array_agg(n), '{}') FROM scope) AS ended,
             (SELECT count(*) FROM announced) AS announced`,
  );
  if (!deleted?.granted) return 'contended';
  return scopes.map((_, index) => (deleted.ended.includes(index) ? 'ended' : 'notHeld'));
}

/** The statement of deleteRowScope. */
function deleteRowScopeQuery(
  tableName: string,
  token: string,
  event: Omit<LockEventInput, 'token'>,
): Prisma.Sql {
  return Prisma.sql`
    WITH scope AS (
      DELETE FROM ${ROW_LOCK}
      WHERE fencing_token = ${token}::bigint AND table_name = ${tableName}
      RETURNING fencing_token
    ), ${scopesEndedWrites(tableName)}, event AS (
      INSERT INTO ${LOCK_EVENT} ${EVENT_COLUMNS}
      SELECT ${eventValues({ ...event, token: null }, Prisma.sql`scope.fencing_token`)} FROM scope
      RETURNING *
    ), announced AS (SELECT ${NOTIFY_EVENT_TABLES_CHANGED} FROM event)
    SELECT EXISTS (SELECT 1 FROM scope) AS ended, (SELECT count(*) FROM announced) AS announced`;
}

/**
 * What ending the scopes of a CTE `scope` (deleted rows of `tableName`) writes besides: the
 * table's version bumped, and when none of its scopes is left, the table taken out of each FK
 * target's holders (a target none holds is `normal` again).
 */
function scopesEndedWrites(tableName: string): Prisma.Sql {
  return Prisma.sql`last AS (
      SELECT NOT EXISTS (SELECT 1 FROM ${ROW_LOCK} AS r
                         WHERE r.table_name = ${tableName}
                           AND r.fencing_token NOT IN (SELECT fencing_token FROM scope)) AS last
      WHERE EXISTS (SELECT 1 FROM scope)
    ), main AS (
      UPDATE ${TABLE_LOCK} SET version = version + 1, updated_at = now()
      WHERE table_name = ${tableName} AND EXISTS (SELECT 1 FROM scope)
    ), targets AS (
      UPDATE ${TABLE_LOCK}
      SET locked_by = array_remove(locked_by, ${tableName}::text),
          status = CASE WHEN cardinality(array_remove(locked_by, ${tableName}::text)) = 0
                        THEN 'normal' ELSE status END,
          version = version + 1, updated_at = now()
      WHERE ${tableName} = ANY(locked_by) AND (SELECT last FROM last)
    )`;
}

/**
 * Scopes that no longer hold (database clock): their lease ran out, or their holder was idle
 * past the idle limit (`idle`). Oldest first.
 */
export function readDeadRowScopes(
  db: Queryable,
): Promise<{ tableName: string; token: string; editor: string; idle: boolean }[]> {
  return db.$queryRaw`
    SELECT table_name AS "tableName", fencing_token::text AS token, editor,
           coalesce(lease_expires_at > now(), true) AS idle
    FROM ${ROW_LOCK} AS row_lock WHERE NOT ${scopeHolds('row_lock')} ORDER BY fencing_token`;
}

/**
 * The registry rows a change of `tableName`'s scopes touches: the table, its FK targets, and
 * every table it holds locked.
 */
function scopeRowsWhere(tableName: string): Prisma.Sql {
  return Prisma.sql`table_name = ${tableName}
       OR table_name IN (SELECT unnest("references") FROM ${TABLE_LOCK} WHERE table_name = ${tableName})
       OR ${tableName} = ANY(locked_by)`;
}

/**
 * Locks the registry rows a change of `tableName`'s scopes touches (see scopeRowsWhere), in
 * name order (the order every lock change takes rows in). Answers their names (without the
 * table's own when it is no master table).
 */
export async function lockScopeRows(db: Queryable, tableName: string): Promise<string[]> {
  const locked = await db.$queryRaw<{ table_name: string }[]>`
    SELECT table_name FROM ${TABLE_LOCK} WHERE ${scopeRowsWhere(tableName)}
    ORDER BY table_name FOR UPDATE`;
  return locked.map((row) => row.table_name);
}
