import type { PrismaClient } from '@tablelock/db';
import { purgeSecurityEvents } from '@tablelock/identity';
import { purgeLockEvents } from '@tablelock/lock';
import { purgeHistory } from '@tablelock/master-data';
import { purgeWebhookDeliveries } from '@tablelock/outbox';
import type { Logger } from 'pino';

/** How many days each history keeps (LOCK_HISTORY_RETENTION_DAYS, …); unset: for ever. */
export interface RetentionSettings {
  lockHistoryDays?: number | undefined;
  securityEventsDays?: number | undefined;
  rowHistoryDays?: number | undefined;
  webhookDeliveriesDays?: number | undefined;
}

/**
 * Entries deleted per transaction: small enough that a purge of a long backlog never holds a
 * transaction open for long, large enough that a year of a busy history goes in minutes.
 */
export const PURGE_BATCH = 5_000;

interface RetainedHistory {
  subject: string;
  retentionDays: number;
  /** Deletes one batch and records it; whether a full batch went (so there may be more). */
  purgeBatch(): Promise<boolean>;
}

function retainedHistories(
  prisma: PrismaClient,
  settings: RetentionSettings,
  batchSize: number,
): RetainedHistory[] {
  type Purge = (
    db: PrismaClient,
    batch: { retentionDays: number; batchSize: number },
  ) => Promise<number>;
  // A change set may hold many row changes: fewer of them per batch.
  const changeSets = Math.max(1, Math.floor(batchSize / 100));
  const purgeChangeSets: Purge = async (db, { retentionDays }) =>
    (await purgeHistory(db, { retentionDays, batchSize: changeSets })).changeSets;
  const kept: [string, number | undefined, Purge, number][] = [
    ['lock history', settings.lockHistoryDays, purgeLockEvents, batchSize],
    ['security events', settings.securityEventsDays, purgeSecurityEvents, batchSize],
    ['row history', settings.rowHistoryDays, purgeChangeSets, changeSets],
    ['webhook deliveries', settings.webhookDeliveriesDays, purgeWebhookDeliveries, batchSize],
  ];
  return kept.flatMap(([subject, retentionDays, purge, fullBatch]) =>
    retentionDays
      ? [
          {
            subject,
            retentionDays,
            purgeBatch: async () =>
              (await purge(prisma, { retentionDays, batchSize })) === fullBatch,
          },
        ]
      : [],
  );
}

export interface RetentionSweeper {
  /** Purges every history with a retention down to it, batch by batch. */
  sweep(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Deletes what each history keeps no longer, every hour, in small transactions one after
 * another; each batch is recorded as a security event `history_purged`. Every API process runs
 * one: a second sweep of the same hour finds nothing.
 */
export function startRetentionSweeper(
  prisma: PrismaClient,
  logger: Logger,
  settings: RetentionSettings,
  { intervalMs = 60 * 60 * 1000, batchSize = PURGE_BATCH } = {},
): RetentionSweeper {
  const histories = retainedHistories(prisma, settings, batchSize);
  let stopped = false;
  let running: Promise<void> | undefined;
  const purge = async ({ subject, retentionDays, purgeBatch }: RetainedHistory) => {
    try {
      let batches = 0;
      while (!stopped && (await purgeBatch())) batches++;
      if (batches > 0) logger.info({ subject, retentionDays, batches }, 'history purged');
    } catch (error) {
      logger.warn({ err: error, subject }, 'could not purge a history');
    }
  };
  const sweep = () => {
    running ??= (async () => {
      for (const history of histories) await purge(history);
    })().finally(() => {
      running = undefined;
    });
    return running;
  };
  const timer = histories.length > 0 ? setInterval(sweep, intervalMs) : undefined;
  timer?.unref();
  return {
    sweep,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
