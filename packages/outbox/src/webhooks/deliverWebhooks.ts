import {
  awaitDurableCommits,
  inTransaction,
  type Prisma,
  type PrismaClient,
  type Queryable,
} from '@tablelock/db';
import { DomainError } from '@tablelock/errors';
import { encodeFeedCursor } from '../feedCursor';
import type { OutboxEvent } from '../outboxEvent';
import { readChangeFeed, readFeedPage } from '../readChangeFeed';
import { type SendOutcome, sendWebhook, type WebhookMessage } from './sendWebhook';
import { parseWebhookUrl, resolveWebhookTarget } from './webhookTarget';

export interface DeliverySettings {
  /** WEBHOOK_ALLOWED_HOSTS: hosts that may be on loopback or private addresses. */
  allowedHosts: readonly string[];
  /** WEBHOOK_TIMEOUT_SECONDS, in ms. */
  timeoutMs: number;
  maxResponseBytes: number;
  /** The wait before the first retry; each next one waits twice as long, up to an hour. */
  firstRetryMs: number;
  /** WEBHOOK_GIVE_UP_SECONDS: an endpoint failing this long is disabled. */
  giveUpSeconds: number;
  /** Row changes per message to endpoints that ask for them. */
  rowBatch: number;
  /**
   * The longest a process waits before it looks for due messages again. Commits announce new
   * events and retries are timed, so this bounds only what a lost announcement delays.
   */
  longestWaitMs: number;
}

export const ROW_BATCH = 1000;
/** Events one claim of a stream sends at most, one after another, before its row lock goes. */
const MESSAGES_PER_CLAIM = 50;
const LONGEST_RETRY_MS = 3_600_000;

/** What became of one claimed message, for the caller's log. */
export interface Delivered {
  webhookId: string;
  messageId: string;
  outcome: SendOutcome;
  /** Set when this failure disabled the endpoint. */
  disabled: boolean;
}

interface Claimed {
  webhook_id: bigint;
  table_name: string;
  position: bigint;
  row_after: bigint | null;
  attempts: number;
  url: string;
  secret: string;
  event_types: string[];
  tables: string[];
  with_rows: boolean;
}

/** Whether a message is due now, and if not, in how long the soonest retry comes due. */
export interface WebhooksDue {
  /** Whether any endpoint is enabled: without one, new events make nothing due. */
  endpoints: boolean;
  due: boolean;
  /** Null when no message waits at all (only a new event can make one due). */
  nextInMs: number | null;
}

/**
 * Gives every enabled endpoint its place in each table it follows (from its creation on), and
 * says when a message is due: one statement, so that a process with nothing to send costs the
 * database one query a round.
 */
export async function webhooksDue(db: Queryable): Promise<WebhooksDue> {
  const [row] = await db.$queryRaw<
    { endpoints: boolean; opened: boolean; next_in_ms: number | null }[]
  >`
    WITH opened AS (
      INSERT INTO tablelock.webhook_stream (webhook_id, table_name, position)
      SELECT w.id, s.table_name, w.after_position
      FROM tablelock.webhook AS w CROSS JOIN tablelock.outbox_stream AS s
      WHERE w.disabled_at IS NULL AND (cardinality(w.tables) = 0 OR s.table_name = ANY (w.tables))
        AND NOT EXISTS (SELECT 1 FROM tablelock.webhook_stream AS o
                        WHERE o.webhook_id = w.id AND o.table_name = s.table_name)
      -- Not for an endpoint being deleted meanwhile (its streams would break the foreign key).
      -- Only rows with a stream to open are locked: a lock writes to the endpoint's row, and
      -- this runs after every commit.
      FOR KEY SHARE OF w SKIP LOCKED
      ON CONFLICT DO NOTHING
      RETURNING 1
    )
    SELECT EXISTS (SELECT 1 FROM tablelock.webhook WHERE disabled_at IS NULL) AS endpoints,
      (SELECT count(*) FROM opened) > 0 AS opened, (
      SELECT greatest(0, extract(epoch FROM min(s.next_attempt_at) - now()) * 1000)::float8
      FROM tablelock.webhook_stream AS s JOIN tablelock.webhook AS w ON w.id = s.webhook_id
      WHERE w.disabled_at IS NULL
        AND (cardinality(w.tables) = 0 OR s.table_name = ANY (w.tables))
        AND EXISTS (SELECT 1 FROM tablelock.outbox_event AS o
                    WHERE o.table_name = s.table_name AND o.position > s.position)) AS next_in_ms`;
  const nextInMs = row?.next_in_ms ?? null;
  return {
    endpoints: Boolean(row?.endpoints),
    due: Boolean(row?.opened) || nextInMs === 0,
    nextInMs,
  };
}

/**
 * Sends the next message of one endpoint's table whose turn has come, if any, once its events
 * are on a synchronous standby (see awaitDurableCommits): its row lock
 * (FOR UPDATE SKIP LOCKED) is held until the answers are recorded, so that no other process
 * sends that table's messages meanwhile, and a process that dies mid-delivery leaves them
 * to the next one. The endpoint's row is held too (KEY SHARE), so that deleting the endpoint
 * waits for the claim to end instead of deadlocking with the delivery log it writes (a delete
 * takes the endpoint first, then its streams). It sends the stream's next messages one after another (up to 50, for about
 * a delivery's time limit) and stops at the first failure. Null when nothing was due; the last
 * message's outcome otherwise (`messageId: ''` when only events the endpoint does not want
 * were passed over).
 */
export function deliverNextWebhook(
  prisma: PrismaClient,
  settings: DeliverySettings,
): Promise<Delivered | null> {
  return inTransaction(
    prisma,
    async (tx) => {
      const [claimed] = await tx.$queryRaw<Claimed[]>`
        SELECT s.webhook_id, s.table_name, s.position, s.row_after, s.attempts,
               w.url, w.secret, w.event_types, w.tables, w.with_rows
        FROM tablelock.webhook_stream AS s JOIN tablelock.webhook AS w ON w.id = s.webhook_id
        WHERE w.disabled_at IS NULL AND s.next_attempt_at <= now()
          AND (cardinality(w.tables) = 0 OR s.table_name = ANY (w.tables))
          AND EXISTS (SELECT 1 FROM tablelock.outbox_event AS o
                      WHERE o.table_name = s.table_name AND o.position > s.position)
        ORDER BY s.next_attempt_at
        LIMIT 1
        FOR UPDATE OF s SKIP LOCKED FOR KEY SHARE OF w SKIP LOCKED`;
      if (!claimed) return null;
      const page = await readFeedPage(
        tx,
        { [claimed.table_name]: claimed.position.toString() },
        MESSAGES_PER_CLAIM,
        [claimed.table_name],
        null,
      );
      // No event leaves before a standby has its commit, which a failover could still lose
      // (its wait cancelled): an OUTCOME_UNKNOWN here ends the claim, tried again next round.
      if (page.events.length > 0) await awaitDurableCommits(prisma);
      const webhookId = claimed.webhook_id.toString();
      const started = performance.now();
      let last: Delivered = { webhookId, messageId: '', outcome: passed, disabled: false };
      let position = claimed.position;
      let rowAfter = claimed.row_after;
      const log: Prisma.WebhookDeliveryCreateManyInput[] = [];
      let attempt = claimed.attempts + 1;
      for (const event of page.events) {
        // Holding the row lock no longer than about one delivery's time limit.
        if (performance.now() - started > settings.timeoutMs) break;
        if (claimed.event_types.length > 0 && !claimed.event_types.includes(event.type)) {
          position = BigInt(event.id);
          continue;
        }
        const built = await messageOf(
          tx,
          { ...claimed, row_after: rowAfter },
          event,
          settings.rowBatch,
        );
        const outcome = await send(claimed, built.message, settings);
        log.push({
          webhookId: claimed.webhook_id,
          url: claimed.url,
          messageId: built.message.id,
          eventId: BigInt(event.id),
          tableName: event.table,
          type: event.type,
          attempt,
          responseStatus: outcome.status,
          latencyMs: outcome.latencyMs,
          delivered: outcome.delivered,
          error: outcome.error,
        });
        attempt = 1;
        last = { webhookId, messageId: built.message.id, outcome, disabled: false };
        if (!outcome.delivered) break;
        rowAfter = built.rowAfter;
        // A change with more rows to send goes on in the next claim, from its next batch.
        if (rowAfter !== null) break;
        position = BigInt(event.id);
      }
      await tx.webhookDelivery.createMany({ data: log });
      // Only a step forward resets the count of failures: the back-off grows on one message.
      const progressed = position !== claimed.position || rowAfter !== claimed.row_after;
      if (progressed) await moveOn(tx, claimed, position, rowAfter);
      if (!last.outcome.delivered) {
        const failing = progressed ? { ...claimed, attempts: 0 } : claimed;
        last.disabled = await retryLater(tx, failing, settings, last.outcome);
      }
      return last;
    },
    { timeout: 2 * settings.timeoutMs + 30_000 },
  );
}

/**
 * Sends a logged message again now ("send again"), as it was (same webhook-id), and logs the
 * attempt. The endpoint's place in its streams does not move. NOT_FOUND for an unknown id.
 */
export async function resendWebhookDelivery(
  prisma: PrismaClient,
  deliveryId: string,
  settings: DeliverySettings,
): Promise<bigint> {
  const delivery = /^[1-9][0-9]{0,18}$/.test(deliveryId)
    ? await prisma.webhookDelivery.findUnique({
        where: { id: BigInt(deliveryId) },
        include: { webhook: true },
      })
    : null;
  if (!delivery) throw new DomainError('NOT_FOUND', `There is no webhook delivery ${deliveryId}.`);
  const { webhook } = delivery;
  if (!webhook) throw new DomainError('NOT_FOUND', 'Its webhook endpoint was deleted.');
  const page = await readChangeFeed(prisma, {
    after: encodeFeedCursor({ [delivery.tableName]: (delivery.eventId - 1n).toString() }),
    first: 1,
    tables: [delivery.tableName],
  });
  const [event] = page.events;
  if (!event || event.id !== delivery.eventId.toString()) {
    throw new DomainError('NOT_FOUND', 'Its event is no longer kept.');
  }
  const rowAfter = /-rows-([0-9]+)$/.exec(delivery.messageId)?.[1];
  const claimed: Claimed = {
    webhook_id: webhook.id,
    table_name: delivery.tableName,
    position: delivery.eventId - 1n,
    row_after: rowAfter === undefined ? null : BigInt(rowAfter),
    attempts: 0,
    url: webhook.url,
    secret: webhook.secret,
    event_types: webhook.eventTypes,
    tables: webhook.tables,
    with_rows: rowAfter !== undefined,
  };
  const { message } = await messageOf(prisma, claimed, event, settings.rowBatch);
  const outcome = await send(claimed, message, settings);
  const logged = await prisma.webhookDelivery.create({
    data: {
      webhookId: webhook.id,
      url: webhook.url,
      messageId: message.id,
      eventId: delivery.eventId,
      tableName: delivery.tableName,
      type: delivery.type,
      attempt: delivery.attempt + 1,
      responseStatus: outcome.status,
      latencyMs: outcome.latencyMs,
      delivered: outcome.delivered,
      error: outcome.error,
    },
  });
  return logged.id;
}

const passed: SendOutcome = { delivered: true, status: null, latencyMs: 0, error: null };

async function send(
  claimed: Claimed,
  message: WebhookMessage,
  settings: DeliverySettings,
): Promise<SendOutcome> {
  try {
    const target = await resolveWebhookTarget(parseWebhookUrl(claimed.url), settings.allowedHosts);
    return await sendWebhook(target, claimed.secret, message, settings);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { delivered: false, status: null, latencyMs: 0, error: error.message };
  }
}

/**
 * The message for `event`: the event itself, or for an endpoint with rows and a change of rows,
 * its next batch of row changes (`rowAfter`: the last of them, null when it is the last batch).
 */
async function messageOf(
  db: Queryable,
  claimed: Claimed,
  event: OutboxEvent,
  rowBatch: number,
): Promise<{ message: WebhookMessage; rowAfter: bigint | null }> {
  const body = { type: event.type, timestamp: event.at.toISOString(), data: eventBody(event) };
  const changeSetId = event.data?.changeSetId;
  if (!claimed.with_rows || typeof changeSetId !== 'string') {
    return { message: { id: event.id, body }, rowAfter: null };
  }
  const after = claimed.row_after ?? 0n;
  const rows = await db.$queryRaw<RowChangeRow[]>`
    SELECT id, row_key AS key, operation, old_values AS "oldValues", new_values AS "newValues"
    FROM tablelock.row_change
    WHERE change_set_id = ${BigInt(changeSetId)} AND id > ${after}
    ORDER BY id LIMIT ${rowBatch + 1}`;
  const batch = rows.slice(0, rowBatch);
  const more = rows.length > rowBatch;
  const last = batch.at(-1)?.id ?? after;
  return {
    message: {
      id: `${event.id}-rows-${after}`,
      body: {
        ...body,
        data: {
          ...body.data,
          rows: batch.map(({ id: _id, ...row }) => row),
          rowsAfter: after.toString(),
          lastBatch: !more,
        },
      },
    },
    rowAfter: more ? last : null,
  };
}

interface RowChangeRow {
  id: bigint;
  key: unknown;
  operation: string;
  oldValues: unknown;
  newValues: unknown;
}

function eventBody(event: OutboxEvent): Record<string, unknown> {
  return { id: event.id, table: event.table, ...event.data };
}

async function moveOn(
  db: Queryable,
  claimed: Claimed,
  position: bigint,
  rowAfter: bigint | null,
): Promise<void> {
  await db.webhookStream.update({
    where: {
      webhookId_tableName: { webhookId: claimed.webhook_id, tableName: claimed.table_name },
    },
    data: { position, rowAfter, attempts: 0, failingSince: null },
  });
}

/** Waits longer after each failure; an endpoint failing for `giveUpSeconds` is disabled. */
async function retryLater(
  db: Queryable,
  claimed: Claimed,
  settings: DeliverySettings,
  outcome: SendOutcome,
): Promise<boolean> {
  const waitMs = Math.min(settings.firstRetryMs * 2 ** claimed.attempts, LONGEST_RETRY_MS);
  const [stream] = await db.$queryRaw<{ given_up: boolean }[]>`
    UPDATE tablelock.webhook_stream
    SET attempts = attempts + 1, failing_since = coalesce(failing_since, now()),
        next_attempt_at = now() + make_interval(secs => ${waitMs / 1000}::float8)
    WHERE webhook_id = ${claimed.webhook_id} AND table_name = ${claimed.table_name}
    RETURNING now() - failing_since >= make_interval(secs => ${settings.giveUpSeconds}::float8)
      AS given_up`;
  if (!stream?.given_up) return false;
  const reason = `Failing for ${settings.giveUpSeconds} s: ${outcome.error ?? 'no answer'}`;
  const webhook = await db.webhook.update({
    where: { id: claimed.webhook_id },
    data: { disabledAt: new Date(), disabledReason: reason },
  });
  // Admins are told where they read what changed: the security events (and the outbox's other
  // endpoints hear it too).
  await db.securityEvent.create({
    data: {
      action: 'webhook_disabled',
      actor: 'system',
      subject: `webhook ${webhook.id}`,
      details: { url: webhook.url, reason },
    },
  });
  return true;
}
