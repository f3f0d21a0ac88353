import type { PrismaClient } from '@tablelock/db';
import { purgeHistory } from '@tablelock/master-data';
import type { Logger } from 'pino';

/**
 * Deletes the row history older than `retentionDays` (HISTORY_RETENTION_DAYS) every hour;
 * each purge is a security event. Every API process runs one: a second purge of the same
 * hour finds nothing. Returns a stop.
 */
export function startHistoryPurgeSweeper(
  prisma: PrismaClient,
  logger: Logger,
  retentionDays: number,
  intervalMs = 60 * 60 * 1000,
): () => Promise<void> {
  let running: Promise<void> | undefined;
  const sweep = async () => {
    try {
      const purged = await purgeHistory(prisma, retentionDays);
      if (purged.changeSets > 0) logger.info({ ...purged, retentionDays }, 'row history purged');
    } catch (error) {
      logger.warn({ err: error }, 'could not purge the row history');
    }
  };
  const timer = setInterval(() => {
    running ??= sweep().finally(() => {
      running = undefined;
    });
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
