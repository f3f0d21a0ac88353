import { Prisma, type Queryable, queryPrepared } from '@tablelock/db';
import {
  EVENT_COLUMNS,
  eventValues,
  type LockEventInput,
  NOTIFY_EVENT_TABLES_CHANGED,
} from './lockEvent';
import {
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
 * Whether row scopes of `tableName` can name rows: its policy declares a row-lock column, or its
 * primary key is one column. Null when the table has no row-lock column; else its name.
 */
export async function readRowLockColumn(
  db: Queryable,
  masterSchema: string,
  tableName: string,
): Promise<string | null> {
  const [row] = await db.$queryRaw<{ column: string | null }[]>`
    SELECT coalesce(
      (SELECT row_lock_column FROM ${TABLE_POLICY} WHERE table_name = ${tableName}),
      (SELECT min(a.attname) FROM pg_index AS i
       JOIN pg_attribute AS a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
       WHERE i.indisprimary AND i.indnkeyatts = 1
         AND i.indrelid = to_regclass(format('%I.%I', ${masterSchema}::text, ${tableName}::text)))
    ) AS column`;
  return row?.column ?? null;
}

/**
 * Takes a row scope in the caller's transaction, whose rows of the table and its FK targets it
 * has locked: a new token, the table's version bumped (an acquisition planned without the scope
 * fails its conditional write), each FK target `locked` with the table among its holders, and
 * the `acquire` event recorded and announced (listeners read the tables again).
 */
export async function insertRowScope(
  db: Queryable,
  scope: { tableName: string; editor: string; rows: string[]; leaseSeconds: number | null },
  fkTargets: string[],
  event: Omit<LockEventInput, 'token'>,
): Promise<RowScopeRow> {
  const [inserted] = await queryPrepared<RowScopeRow>(
    db,
    Prisma.sql`
      WITH scope AS (
        INSERT INTO ${ROW_LOCK} (fencing_token, table_name, editor, rows, lease_expires_at)
        VALUES (${NEXT_FENCING_TOKEN}, ${scope.tableName}, ${scope.editor}, ${scope.rows}::text[],
                now() + make_interval(secs => ${scope.leaseSeconds}::int))
        RETURNING *
      ), main AS (
        UPDATE ${TABLE_LOCK} SET version = version + 1, updated_at = now()
        WHERE table_name = ${scope.tableName}
      ), targets AS (
        UPDATE ${TABLE_LOCK}
        SET status = 'locked', editor = NULL,
            locked_by = ARRAY(SELECT DISTINCT unnest(locked_by || ${scope.tableName}::text) ORDER BY 1),
            version = version + 1, updated_at = now()
        WHERE table_name = ANY(${fkTargets}::text[])
      ), event AS (
        INSERT INTO ${LOCK_EVENT} ${EVENT_COLUMNS}
        SELECT ${eventValues({ ...event, token: null }, Prisma.sql`(SELECT fencing_token FROM scope)`)}
        RETURNING *
      ), announced AS (SELECT ${NOTIFY_EVENT_TABLES_CHANGED} FROM event)
      SELECT ${SCOPE_COLUMNS}, (SELECT count(*) FROM announced) AS announced FROM scope`,
  );
  if (!inserted) throw new Error(`The row scope of ${scope.tableName} was not written.`);
  return inserted;
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
    SELECT ${SCOPE_COLUMNS} FROM ${ROW_LOCK}
    WHERE fencing_token = ${token}::bigint AND table_name = ${tableName}
      AND (lease_expires_at IS NULL OR lease_expires_at > now())
    FOR UPDATE`;
  return scope ?? null;
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
    UPDATE ${ROW_LOCK}
    SET lease_expires_at = now() + make_interval(secs => ${leaseSeconds}::int),
        last_active_at = CASE WHEN ${active} THEN now() ELSE last_active_at END
    WHERE fencing_token = ${scope.token}::bigint AND table_name = ${scope.tableName}
      AND editor = ${scope.editor}
      AND (lease_expires_at IS NULL OR lease_expires_at > now())
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
  const [deleted] = await db.$queryRaw<{ ended: boolean }[]>`
    WITH scope AS (
      DELETE FROM ${ROW_LOCK}
      WHERE fencing_token = ${token}::bigint AND table_name = ${tableName}
      RETURNING fencing_token
    ), last AS (
      SELECT NOT EXISTS (SELECT 1 FROM ${ROW_LOCK} AS r
                         WHERE r.table_name = ${tableName}
                           AND r.fencing_token NOT IN (SELECT fencing_token FROM scope)) AS last
      FROM scope
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
    ), event AS (
      INSERT INTO ${LOCK_EVENT} ${EVENT_COLUMNS}
      SELECT ${eventValues({ ...event, token: null }, Prisma.sql`scope.fencing_token`)} FROM scope
      RETURNING *
    ), announced AS (SELECT ${NOTIFY_EVENT_TABLES_CHANGED} FROM event)
    SELECT EXISTS (SELECT 1 FROM scope) AS ended, (SELECT count(*) FROM announced) AS announced`;
  return deleted?.ended ?? false;
}

/** Scopes whose lease has run out (database clock), oldest lease first. */
export function readDeadRowScopes(
  db: Queryable,
): Promise<{ tableName: string; token: string; editor: string }[]> {
  return db.$queryRaw`
    SELECT table_name AS "tableName", fencing_token::text AS token, editor
    FROM ${ROW_LOCK} WHERE lease_expires_at <= now() ORDER BY lease_expires_at`;
}

/**
 * Locks the registry rows a change of `tableName`'s scopes touches, in name order (the order
 * every lock change takes rows in): the table, its FK targets, and every table it holds locked.
 */
export async function lockScopeRows(db: Queryable, tableName: string): Promise<void> {
  await db.$queryRaw`
    SELECT table_name FROM ${TABLE_LOCK}
    WHERE table_name = ${tableName}
       OR table_name IN (SELECT unnest("references") FROM ${TABLE_LOCK} WHERE table_name = ${tableName})
       OR ${tableName} = ANY(locked_by)
    ORDER BY table_name FOR UPDATE`;
}
