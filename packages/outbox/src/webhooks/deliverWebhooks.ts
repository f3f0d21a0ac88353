import { inTransaction, type Prisma, type PrismaClient, type Queryable } from '@tablelock/db';
import { DomainError } from '@tablelock/errors';
import { encodeFeedCursor } from '../feedCursor';
import type { OutboxEvent } from '../outboxEvent';
import { readChangeFeed, readFeedPage } from '../readChangeFeed';
import { type SendOutcome, sendWebhook, type WebhookMessage } from './sendWebhook';
import { type Claimed, claimStream, releaseClaim, type StreamPlace } from './streamClaims';
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
/** Events one claim of a stream sends at most, one after another. */
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

/** An endpoint with messages waiting, and when the soonest of them is due. */
export interface WebhookWaiting {
  webhookId: string;
  /** 0: due now. A retry's wait, or the lease of a delivery under way. */
  dueInMs: number;
}

export interface WebhooksDue {
  /** Whether any endpoint is enabled: without one, new events make nothing due. */
  endpoints: boolean;
  /** Endpoints with messages waiting (only a new event can make another one due). */
  waiting: WebhookWaiting[];
}

/**
 * Gives every enabled endpoint its place in each table it follows (from its creation on), and
 * says which endpoints have messages due, and when the others' come due: one statement, so
 * that a process with nothing to send costs the database one query a round.
 */
export async function webhooksDue(db: Queryable): Promise<WebhooksDue> {
  const [row] = await db.$queryRaw<{ endpoints: boolean; waiting: WebhookWaiting[] }[]>`
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
      RETURNING webhook_id
    ), waiting AS (
      -- A stream under way comes due when its claim's lease runs out (its process died), unless
      -- its delivery records its outcome first.
      SELECT s.webhook_id, greatest(s.next_attempt_at, s.claimed_until) AS due_at
      FROM tablelock.webhook_stream AS s JOIN tablelock.webhook AS w ON w.id = s.webhook_id
      WHERE w.disabled_at IS NULL
        AND (cardinality(w.tables) = 0 OR s.table_name = ANY (w.tables))
        AND EXISTS (SELECT 1 FROM tablelock.outbox_event AS o
                    WHERE o.table_name = s.table_name AND o.position > s.position)
      UNION ALL
      -- A stream opened now is not seen by the rest of this statement: it may have events.
      SELECT webhook_id, now() FROM opened
    )
    SELECT EXISTS (SELECT 1 FROM tablelock.webhook WHERE disabled_at IS NULL) AS endpoints, (
      SELECT coalesce(jsonb_agg(jsonb_build_object(
        'webhookId', webhook_id::text,
        'dueInMs', greatest(0, extract(epoch FROM due_at - now()) * 1000)::float8)), '[]')
      FROM (SELECT webhook_id, min(due_at) AS due_at FROM waiting GROUP BY webhook_id) AS soonest
    ) AS waiting`;
  return { endpoints: Boolean(row?.endpoints), waiting: row?.waiting ?? [] };
}

/**
 * Sends the next messages of one endpoint's table whose turn has come (of `webhookId` only,
 * when given), if any: claim, send, record. The claim is committed before the first send
 * (streamClaims.ts), so that a slow receiver holds no connection and no transaction; the
 * outcome is recorded in a short transaction of its own, and moves the stream on or backs it
 * off only if the claim is still this one. Its events go once they are on a synchronous
 * standby (readFeedPage). It sends the stream's next messages one after another (up
 * to 50, started within a delivery's time limit of the claim, so that the last ends within the
 * claim's lease) and stops at the first failure. Null when nothing was due; the last message's
 * outcome otherwise (`messageId: ''` when only events the endpoint does not want were passed
 * over).
 */
export async function deliverNextWebhook(
  prisma: PrismaClient,
  settings: DeliverySettings,
  webhookId?: string,
): Promise<Delivered | null> {
  // Before the claim: the sends' window is measured from no later than the lease's start.
  const claimedAt = performance.now();
  const claimed = await claimStream(prisma, settings.timeoutMs, webhookId);
  if (!claimed) return null;
  try {
    const sent = await sendClaimed(prisma, claimed, settings, claimedAt);
    return await inTransaction(prisma, (tx) => recordClaimed(tx, claimed, sent, settings));
  } catch (error) {
    // The stream goes to the next delivery at once instead of when the lease runs out; if the
    // database cannot be reached, the lease does it.
    await releaseClaim(prisma, claimed).catch(() => {});
    throw error;
  }
}

/** What a claim's sends did: the attempts to log, and where the stream stands after them. */
interface Sent {
  last: Delivered;
  log: Prisma.WebhookDeliveryCreateManyInput[];
  position: bigint;
  rowAfter: bigint | null;
}

async function sendClaimed(
  prisma: PrismaClient,
  claimed: Claimed,
  settings: DeliverySettings,
  claimedAt: number,
): Promise<Sent> {
  // No event leaves before a standby has its commit, which a failover could still lose (its
  // wait cancelled): the page is confirmed in its own read, on the server it came from. An
  // OUTCOME_UNKNOWN here ends the claim, tried again next round.
  const page = await readFeedPage(
    prisma,
    { [claimed.table_name]: claimed.position.toString() },
    MESSAGES_PER_CLAIM,
    [claimed.table_name],
    null,
  );
  const webhookId = claimed.webhook_id.toString();
  const sent: Sent = {
    last: { webhookId, messageId: '', outcome: passed, disabled: false },
    log: [],
    position: claimed.position,
    rowAfter: claimed.row_after,
  };
  let attempt = claimed.attempts + 1;
  for (const event of page.events) {
    // No send starts later than this: the last one ends within the claim's lease, before
    // another process may take the stream.
    if (performance.now() - claimedAt > settings.timeoutMs) break;
    if (claimed.event_types.length > 0 && !claimed.event_types.includes(event.type)) {
      sent.position = BigInt(event.id);
      continue;
    }
    const built = await messageOf(
      prisma,
      { ...claimed, row_after: sent.rowAfter },
      event,
      settings.rowBatch,
    );
    const outcome = await send(claimed, built.message, settings);
    sent.log.push({
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
    sent.last = { webhookId, messageId: built.message.id, outcome, disabled: false };
    if (!outcome.delivered) break;
    sent.rowAfter = built.rowAfter;
    // A change with more rows to send goes on in the next claim, from its next batch.
    if (sent.rowAfter !== null) break;
    sent.position = BigInt(event.id);
  }
  return sent;
}

/**
 * Logs the claim's attempts (they left, whatever became of the claim: without the endpoint
 * when it was deleted meanwhile), then, if the claim is still this one, moves the stream on,
 * backs it off or disables the endpoint, and ends the claim. A claim another process took
 * (this one's lease ran out) is that process's to record.
 */
async function recordClaimed(
  tx: Queryable,
  claimed: Claimed,
  sent: Sent,
  settings: DeliverySettings,
): Promise<Delivered> {
  // The endpoint first, as a delete takes it before its streams (no deadlock): a delete under
  // way is waited for, and one that comes next waits for this transaction.
  const [endpoint] = await tx.$queryRaw<{ id: bigint }[]>`
    SELECT id FROM tablelock.webhook WHERE id = ${claimed.webhook_id} FOR KEY SHARE`;
  await tx.webhookDelivery.createMany({
    data: sent.log.map((entry) => ({ ...entry, webhookId: endpoint ? entry.webhookId : null })),
  });
  // Only a step forward resets the count of failures: the back-off grows on one message.
  const progressed = sent.position !== claimed.position || sent.rowAfter !== claimed.row_after;
  const [stream] = await tx.$queryRaw<{ attempts: number }[]>`
    UPDATE tablelock.webhook_stream
    SET claim = NULL, claimed_until = NULL, position = ${sent.position},
        row_after = ${sent.rowAfter}::bigint,
        attempts = CASE WHEN ${progressed}::boolean THEN 0 ELSE attempts END,
        failing_since = CASE WHEN ${progressed}::boolean THEN NULL ELSE failing_since END
    WHERE webhook_id = ${claimed.webhook_id} AND table_name = ${claimed.table_name}
      AND claim = ${claimed.claim}::uuid
    RETURNING attempts`;
  const { last } = sent;
  if (stream && !last.outcome.delivered) {
    last.disabled = await retryLater(tx, { ...claimed, ...stream }, settings, last.outcome);
  }
  return last;
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
  const place: StreamPlace = {
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
  const { message } = await messageOf(prisma, place, event, settings.rowBatch);
  const outcome = await send(place, message, settings);
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
  place: StreamPlace,
  message: WebhookMessage,
  settings: DeliverySettings,
): Promise<SendOutcome> {
  try {
    const target = await resolveWebhookTarget(parseWebhookUrl(place.url), settings.allowedHosts);
    return await sendWebhook(target, place.secret, message, settings);
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
  place: StreamPlace,
  event: OutboxEvent,
  rowBatch: number,
): Promise<{ message: WebhookMessage; rowAfter: bigint | null }> {
  const body = { type: event.type, timestamp: event.at.toISOString(), data: eventBody(event) };
  const changeSetId = event.data?.changeSetId;
  if (!place.with_rows || typeof changeSetId !== 'string') {
    return { message: { id: event.id, body }, rowAfter: null };
  }
  const after = place.row_after ?? 0n;
  const rows = await db.$queryRaw<RowChangeRow[]>`
    SELECT id, row_key AS key, operation, old_values AS "oldValues", new_values AS "newValues"
    FROM tablelock.row_changes_of_change_set(${BigInt(changeSetId)}, ${after}, ${rowBatch + 1}::int)
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
