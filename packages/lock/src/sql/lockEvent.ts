import type { LockAction, Queryable } from '@tablelock/db';
import { Prisma } from '@tablelock/db';
import { LOCK_ACTION_TYPE, LOCK_EVENT } from './registryTables';

/** What the audit history records about one lock operation. */
export interface LockEventInput {
  action: LockAction;
  tableName: string;
  /** Who did it: a username, `key:<name>`, or `system`. */
  actor: string;
  /** Whose lock it was or became. */
  editor: string | null;
  token?: string | null;
  reason?: string | null;
  rowsChanged?: number | null;
  details?: Record<string, unknown> | null;
}

/** The Postgres channel on which every lock change is announced, when its transaction commits. */
export const LOCK_CHANNEL = 'tablelock_lock_change';

export const EVENT_COLUMNS = Prisma.sql`(action, table_name, actor, editor, token, reason, rows_changed, details)`;

/**
 * The event's values, in EVENT_COLUMNS order; `token` is an SQL expression (a write may learn it
 * only as it runs), and so may `details` be, in place of the event's own.
 */
export function eventValues(
  event: LockEventInput,
  token: Prisma.Sql,
  details: Prisma.Sql = Prisma.sql`${event.details ? JSON.stringify(event.details) : null}::jsonb`,
): Prisma.Sql {
  return Prisma.sql`${event.action}::${LOCK_ACTION_TYPE}, ${event.tableName}, ${event.actor},
    ${event.editor}, ${token}, ${event.reason ?? null}, ${event.rowsChanged ?? null}::int,
    ${details}`;
}

/**
 * A SELECT of `events`' values, in EVENT_COLUMNS order, from one JSON parameter: the same text
 * however many there are, so that a statement inserting them stays one prepared statement.
 */
export function eventRows(events: LockEventInput[]): Prisma.Sql {
  const rows = JSON.stringify(
    events.map((event) => ({
      action: event.action,
      table_name: event.tableName,
      actor: event.actor,
      editor: event.editor,
      token: event.token ?? null,
      reason: event.reason ?? null,
      rows_changed: event.rowsChanged ?? null,
      details: event.details ?? null,
    })),
  );
  return Prisma.sql`
    SELECT e.action::${LOCK_ACTION_TYPE}, e.table_name, e.actor, e.editor, e.token::bigint,
           e.reason, e.rows_changed, e.details
    FROM jsonb_to_recordset(${rows}::jsonb)
      AS e(action text, table_name text, actor text, editor text, token text, reason text,
           rows_changed int, details jsonb)`;
}

// Postgres refuses a notification of 8000 bytes or more (and with it the whole write).
const MAX_NOTIFY_BYTES = 8000;

/**
 * Announces the rows of a relation `event` (inserted lock events) on LOCK_CHANNEL, with
 * `tables` (a jsonb array): the new lock state of each table the change wrote. When that would
 * make the notification too long, `tables` goes out as null: listeners then read the tables
 * again rather than patch them.
 */
export function notifyEvent(tables: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`pg_notify(${LOCK_CHANNEL}, (
    SELECT CASE WHEN octet_length(whole) < ${MAX_NOTIFY_BYTES} THEN whole ELSE without_tables END
    FROM (SELECT (base || jsonb_build_object('tables', ${tables}))::text AS whole,
                 (base || '{"tables": null}'::jsonb)::text AS without_tables
          FROM (SELECT jsonb_build_object(
                  'id', event.id::text, 'at', event.at, 'action', event.action,
                  'table', event.table_name, 'actor', event.actor, 'editor', event.editor,
                  'token', event.token::text, 'reason', event.reason,
                  'rowsChanged', event.rows_changed,
                  'previousEditor', event.details->>'previousEditor') AS base) AS b) AS payload))`;
}

/** Announces events that wrote no table's lock state (saves, the line): `tables` is empty. */
export const NOTIFY_EVENT = notifyEvent(Prisma.sql`'[]'::jsonb`);

/**
 * Announces events that changed what readers are shown of tables besides their lock state (a
 * freeze, a thaw): `tables` is null, so listeners read those tables again.
 */
export const NOTIFY_EVENT_TABLES_CHANGED = notifyEvent(Prisma.sql`NULL::jsonb`);

/**
 * Records an event in the caller's transaction (`db`), announcing it unless `announce` is
 * false (a denied attempt changes nothing anyone needs to hear about).
 */
export async function recordLockEvent(
  db: Queryable,
  event: LockEventInput,
  announce = true,
): Promise<void> {
  const inserted = Prisma.sql`INSERT INTO ${LOCK_EVENT} ${EVENT_COLUMNS}
    VALUES (${eventValues(event, Prisma.sql`${event.token ?? null}::bigint`)})`;
  await (announce
    ? db.$executeRaw`WITH event AS (${inserted} RETURNING *) SELECT ${NOTIFY_EVENT} FROM event`
    : db.$executeRaw`${inserted}`);
}
