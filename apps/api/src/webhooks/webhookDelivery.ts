import { isOutcomeUnknown, type PrismaClient } from '@tablelock/db';
import { type DeliverySettings, deliverNextWebhook, webhooksDue } from '@tablelock/outbox';
import type { Logger } from 'pino';
import { isDatabaseUnreachable } from '../process/databaseUnreachable';

/** Messages one round sends at most before it lets the next round look again. */
const MESSAGES_PER_ROUND = 200;
/**
 * Messages this process sends at once (each holds a pooled connection while it waits for the
 * answer): different endpoints and tables go on in parallel.
 */
const SENDERS = 2;

/**
 * Delivers the outbox's events to the webhooks, every `intervalMs` and for as long as messages
 * are due. Every API process runs one; the row lock of each endpoint's table (SKIP LOCKED)
 * gives each message to one of them. Logs never hold a secret; while the database cannot be
 * reached, `onUnreachable` hears of it instead. Returns a stop.
 */
export function startWebhookDelivery(
  prisma: PrismaClient,
  settings: DeliverySettings,
  logger: Logger,
  onUnreachable: (error: unknown) => void,
  intervalMs = 100,
): () => Promise<void> {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const round = async () => {
    try {
      if (!(await webhooksDue(prisma))) return;
      await Promise.all(Array.from({ length: SENDERS }, () => send()));
    } catch (error) {
      // A database outage is said once, by the availability watch, not ten times a second here;
      // a statement cut off by it is simply tried again (deliveries are at least once).
      if (isDatabaseUnreachable(error)) onUnreachable(error);
      else if (isOutcomeUnknown(error)) {
        logger.warn({ reason: String(error) }, 'webhook delivery round cut off; trying again');
      } else logger.warn({ err: error }, 'webhook delivery round failed');
    }
  };
  const send = async () => {
    for (let sent = 0; sent < MESSAGES_PER_ROUND / SENDERS && !stopped; sent++) {
      const delivered = await deliverNextWebhook(prisma, settings);
      if (!delivered) return;
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
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = round().then(schedule);
    }, intervalMs);
  };
  schedule();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
