import { isOutcomeUnknown, type PrismaClient } from '@tablelock/db';
import { type DeliverySettings, deliverNextWebhook, webhooksDue } from '@tablelock/outbox';
import type { Logger } from 'pino';
import type { OutboxCommits } from '../ports/outboxCommits';
import { isDatabaseUnreachable } from '../process/databaseUnreachable';

/** Messages one round sends at most before it lets the next round look again. */
const MESSAGES_PER_ROUND = 200;
/**
 * Messages this process sends at once (each holds a pooled connection while it waits for the
 * answer): different endpoints and tables go on in parallel.
 */
const SENDERS = 2;
/**
 * The least time between two rounds: commits that come meanwhile are sent together, a claim
 * taking many messages at once instead of a claim (a transaction) for each.
 */
const ROUND_GAP_MS = 50;
/**
 * Delivers the outbox's events to the webhooks: when a commit announces new events (while any
 * endpoint is enabled: without one, a commit costs this process nothing), when an endpoint
 * changes, when the soonest retry comes due, and at least every `settings.longestWaitMs`. Every
 * API process runs one; the row lock of each endpoint's table (SKIP LOCKED) gives each message
 * to one of them. Logs never hold a secret; while the database cannot be reached,
 * `onUnreachable` hears of it instead. Returns a stop.
 */
export function startWebhookDelivery(
  prisma: PrismaClient,
  settings: DeliverySettings,
  commits: OutboxCommits,
  logger: Logger,
  onUnreachable: (error: unknown) => void,
): () => Promise<void> {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let announced = false;
  let endpoints = true;
  let timerAt = Number.POSITIVE_INFINITY;
  /** Runs one round, then waits for what comes first: an announcement or the next due time. */
  const round = async (): Promise<number> => {
    try {
      const due = await webhooksDue(prisma);
      endpoints = due.endpoints;
      if (!due.due) return Math.min(due.nextInMs ?? settings.longestWaitMs, settings.longestWaitMs);
      const sent = await Promise.all(Array.from({ length: SENDERS }, () => send()));
      // Something was sent: look again at once for what is left and when it comes due. Nothing
      // could be claimed: another process is sending it, and a claim it leaves (it died) is
      // found within the longest wait.
      return sent.some((count) => count > 0) ? 0 : settings.longestWaitMs;
    } catch (error) {
      // A database outage is said once, by the availability watch, not every round here; a
      // statement cut off by it is simply tried again (deliveries are at least once).
      if (isDatabaseUnreachable(error)) onUnreachable(error);
      else if (isOutcomeUnknown(error)) {
        logger.warn({ reason: String(error) }, 'webhook delivery round cut off; trying again');
      } else logger.warn({ err: error }, 'webhook delivery round failed');
      return settings.longestWaitMs;
    }
  };
  const send = async (): Promise<number> => {
    let sent = 0;
    for (; sent < MESSAGES_PER_ROUND / SENDERS && !stopped; sent++) {
      const delivered = await deliverNextWebhook(prisma, settings);
      if (!delivered) return sent;
      if (delivered.disabled) {
        logger.error(
          { webhook: delivered.webhookId, error: delivered.outcome.error },
          'webhook disabled: its endpoint failed for too long',
        );
      } else if (!delivered.outcome.delivered) {
        logger.warn(
          {
            webhook: delivered.webhookId,
            message: delivered.messageId,
            error: delivered.outcome.error,
          },
          'webhook delivery failed; it will be retried',
        );
      }
    }
    return sent;
  };
  /** Runs a round in `waitMs` (no sooner than ROUND_GAP_MS), unless one is due sooner. */
  const runIn = (waitMs: number) => {
    const at = Date.now() + Math.max(waitMs, ROUND_GAP_MS);
    if (at >= timerAt) return;
    clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(run, at - Date.now());
  };
  const run = () => {
    timerAt = Number.POSITIVE_INFINITY;
    announced = false;
    running = round().then((waitMs) => {
      running = undefined;
      if (!stopped) runIn(announced ? 0 : waitMs);
    });
  };
  commits.onAnnounced((announcement) => {
    if (stopped || (announcement === 'events' && !endpoints)) return;
    if (running) announced = true;
    else runIn(0);
  });
  run();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
