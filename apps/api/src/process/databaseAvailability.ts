import type { PrismaClient } from '@tablelock/db';
import type { Logger } from 'pino';
import type { DatabaseAvailability } from '../ports/databaseAvailability';

const PROBE_INTERVAL_MS = 1_000;

export function watchDatabaseAvailability(
  prisma: PrismaClient,
  logger: Logger,
): DatabaseAvailability {
  let probe: NodeJS.Timeout | undefined;
  let stopped = false;
  const scheduleProbe = () => {
    probe = setTimeout(async () => {
      try {
        await prisma.$queryRaw`SELECT 1`;
        probe = undefined;
        logger.info('database back');
      } catch {
        if (!stopped) scheduleProbe();
      }
    }, PROBE_INTERVAL_MS);
    probe.unref();
  };
  return {
    reportUnreachable(error) {
      if (probe || stopped) return;
      logger.warn(
        { reason: error instanceof Error ? error.message : String(error) },
        'database unreachable',
      );
      scheduleProbe();
    },
    stop() {
      stopped = true;
      clearTimeout(probe);
    },
  };
}
