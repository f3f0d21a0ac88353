import type { PrismaClient } from '@tablelock/db';
import { type DeliverySettings, deliverNextWebhook, webhooksDue } from '@tablelock/outbox';
import type { Logger } from 'pino';
import type { OutboxCommits } from '../ports/outboxCommits';
import { reportRoundFailure } from '../process/reportRoundFailure';

/**
 * The least time between two rounds: commits that come meanwhile are sent together, a claim
 * taking many messages at once instead of a claim for each.
 */
const ROUND_GAP_MS = 50;
/**
 * Delivers the outbox's events to the webhooks: when a commit announces new events (while any
 * endpoint is enabled: without one, a commit costs this process nothing), when an endpoint
 * changes, when the soonest retry comes due, and at least every `settings.longestWaitMs`. Every
 * API process runs one; each stream's claim (see deliverNextWebhook) gives each message to one
 * of them. A round only looks: each endpoint with messages due gets a sender of its own, which
 * sends them one claim after another, so that a slow endpoint keeps only its own messages
 * waiting, never a round nor another endpoint. Logs never hold a secret; while the database
 * cannot be reached, `onUnreachable` hears of it instead. Returns a stop.
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
  /** This process's sender of each endpoint under way, by the endpoint's id. */
  const senders = new Map<string, Promise<void>>();
  const reportFailure = (error: unknown) =>
    reportRoundFailure(error, {
      logger,
      onUnreachable,
      cutOff: 'webhook delivery cut off; trying again',
      failed: 'webhook delivery failed',
      failedLevel: 'warn',
    });
  /**
   * Starts a sender for each endpoint due without one, then waits for what comes first: an
   * announcement or the next due time of an endpoint without a sender (one with a sender looks
   * again when its sender ends).
   */
  const round = async (): Promise<number> => {
    try {
      const due = await webhooksDue(prisma);
      endpoints = due.endpoints;
      let waitMs = settings.longestWaitMs;
      for (const { webhookId, dueInMs } of due.waiting) {
        if (senders.has(webhookId) || stopped) continue;
        if (dueInMs === 0) startSender(webhookId);
        else waitMs = Math.min(waitMs, dueInMs);
      }
      return waitMs;
    } catch (error) {
      reportFailure(error);
      return settings.longestWaitMs;
    }
  };
  const startSender = (webhookId: string) => {
    const sending = send(webhookId).then((failed) => {
      senders.delete(webhookId);
      // What is left, or came meanwhile, is found by the next round: at once after sending, and
      // within the longest wait after a failure (no tight loop while the database is away).
      if (!stopped) runIn(failed ? settings.longestWaitMs : 0);
    });
    senders.set(webhookId, sending);
  };
  /** Sends an endpoint's due messages, claim after claim; true when it ended on an error. */
  const send = async (webhookId: string): Promise<boolean> => {
    try {
      while (!stopped) {
        const delivered = await deliverNextWebhook(prisma, settings, webhookId);
        if (!delivered) return false;
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
      return false;
    } catch (error) {
      reportFailure(error);
      return true;
    }
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
    // One round at a time: the one under way looks again when it ends.
    if (running) {
      announced = true;
      return;
    }
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
    await Promise.all(senders.values());
  };
}
