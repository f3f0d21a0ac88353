import type { PrismaClient } from '@tablelock/db';
import type { Logger } from 'pino';

const PROBE_INTERVAL_MS = 1_000;

/** Whether the database answers, as this process last saw it. */
export interface DatabaseAvailability {
  /**
   * A request or the sweeper found the database unreachable. The first such report of an
   * outage logs "database unreachable" and starts probing until the database answers again
   * ("database back"): one line each, not a stack trace per request.
   */
  reportUnreachable(error: unknown): void;
  stop(): void;
}

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
