import { Prisma, type PrismaClient, type Queryable, readDurably } from '@tablelock/db';
import { DomainError } from '@tablelock/errors';
import { type EventType, isEventType } from './eventTypes';
import {
  advanceFeedCursor,
  decodeFeedCursor,
  encodeFeedCursor,
  type FeedCursor,
} from './feedCursor';
import type { OutboxEvent } from './outboxEvent';

export const MAX_FEED_PAGE = 500;

export interface ChangeFeedRequest {
  /** A page's endCursor; null: from the first event kept. */
  after?: string | null;
  first: number;
  /** Only these tables; null: all. */
  tables?: readonly string[] | null;
  /** Only these event types; null: all. */
  types?: readonly string[] | null;
}

/** An event of the feed, with the cursor that reads on after it. */
export type FeedEntry = OutboxEvent & { cursor: string };

export interface ChangeFeedPage {
  events: FeedEntry[];
  /** Pass as `after` for the events after this page (the same cursor when there were none). */
  endCursor: string;
}

/**
 * The outbox's committed events after `after`, in position order: per table, commit order.
 * Reading the same cursor again yields the same events and more, never fewer.
 */
export async function readChangeFeed(
  prisma: PrismaClient,
  request: ChangeFeedRequest,
): Promise<ChangeFeedPage> {
  const { first } = request;
  if (!Number.isInteger(first) || first < 1 || first > MAX_FEED_PAGE) {
    throw new DomainError('BAD_USER_INPUT', `first must be 1 to ${MAX_FEED_PAGE}.`);
  }
  const cursor = decodeFeedCursor(request.after);
  const types = request.types ?? null;
  const unknownType = types?.find((type) => !isEventType(type));
  if (unknownType !== undefined) {
    throw new DomainError('BAD_USER_INPUT', `There is no event type ${unknownType}.`);
  }
  const tables = request.tables ?? null;
  if (tables) await requireKnownTables(prisma, tables);
  return readFeedPage(prisma, cursor, first, tables, types);
}

/**
 * The page after `cursor`, for callers that checked their request. Its events are on a
 * synchronous standby when it returns (readDurably): a reader never gets an event whose commit
 * a failover can still lose (its wait for the standbys cancelled), and the page is confirmed in
 * the read itself, on the server it came from.
 */
export async function readFeedPage(
  prisma: PrismaClient,
  cursor: FeedCursor,
  first: number,
  tables: readonly string[] | null,
  types: readonly string[] | null,
): Promise<ChangeFeedPage> {
  const rows = await readDurably<FeedRow>(prisma, (durable) =>
    feedPageSql(cursor, first, tables, types, durable),
  );
  return feedPageOf(rows, cursor);
}

function feedPageSql(
  cursor: FeedCursor,
  first: number,
  tables: readonly string[] | null,
  types: readonly string[] | null,
  durable: Prisma.Sql,
): Prisma.Sql {
  return Prisma.sql`
    WITH seen AS (
      SELECT key AS table_name, value::bigint AS position
      FROM jsonb_each_text(${JSON.stringify(cursor)}::jsonb)
    ), streams AS (
      SELECT s.table_name, coalesce(seen.position, 0) AS after
      FROM tablelock.outbox_stream AS s LEFT JOIN seen USING (table_name)
      WHERE ${tables}::text[] IS NULL OR s.table_name = ANY (${tables}::text[])
    ), page AS (
      SELECT o.* FROM streams CROSS JOIN LATERAL (
        SELECT * FROM tablelock.outbox_event AS o
        WHERE o.table_name = streams.table_name AND o.position > streams.after
          AND (${types}::text[] IS NULL OR o.type = ANY (${types}::text[]))
        ORDER BY o.position LIMIT ${first}) AS o
      ORDER BY o.position LIMIT ${first}
    )
    SELECT page.position::text AS id, page.table_name AS "table", page.type, page.at,
      CASE
        WHEN e.id IS NOT NULL THEN jsonb_build_object(
          'actor', e.actor, 'editor', e.editor, 'token', e.token::text, 'reason', e.reason,
          'details', e.details)
        WHEN c.id IS NOT NULL THEN jsonb_build_object(
          'changeSetId', c.id::text, 'actor', c.actor, 'token', c.token::text,
          'dbRole', c.db_role, 'applicationName', c.application_name,
          'revertsChangeSetId', c.reverts_change_set_id::text, 'inserted', c.rows_inserted,
          'updated', c.rows_updated, 'deleted', c.rows_deleted)
        WHEN s.id IS NOT NULL THEN jsonb_build_object('actor', s.actor, 'details', s.details)
      END AS data
    FROM page
    LEFT JOIN tablelock.lock_event AS e ON e.id = page.lock_event_id
    LEFT JOIN tablelock.change_set AS c ON c.id = page.change_set_id
    LEFT JOIN tablelock.security_event AS s ON s.id = page.security_event_id
    WHERE ${durable}
    ORDER BY page.position`;
}

function feedPageOf(rows: FeedRow[], cursor: FeedCursor): ChangeFeedPage {
  let moved = cursor;
  const events = rows.map((row) => {
    moved = advanceFeedCursor(moved, row.table, row.id);
    return {
      ...row,
      type: row.type as EventType,
      data: row.data as Record<string, unknown> | null,
      cursor: encodeFeedCursor(moved),
    };
  });
  return { events, endCursor: encodeFeedCursor(moved) };
}

interface FeedRow {
  id: string;
  table: string;
  type: string;
  at: Date;
  data: Prisma.JsonValue | null;
}

async function requireKnownTables(db: Queryable, tables: readonly string[]): Promise<void> {
  const known = await db.$queryRaw<{ table_name: string }[]>`
    SELECT table_name FROM tablelock.table_lock WHERE table_name = ANY (${tables}::text[])
    UNION SELECT table_name FROM tablelock.outbox_stream WHERE table_name = ANY (${tables}::text[])`;
  const names = new Set(known.map((row) => row.table_name));
  const unknown = tables.find((table) => !names.has(table));
  if (unknown !== undefined) {
    throw new DomainError('BAD_USER_INPUT', `There is no table ${unknown}.`);
  }
}
