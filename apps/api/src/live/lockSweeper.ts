import type { PrismaClient } from '@tablelock/db';
import { deleteExpiredIdempotencyKeys, expireLeases } from '@tablelock/lock';
import type { Logger } from 'pino';

export interface LockSweeperOptions {
  prisma: PrismaClient;
  logger: Logger;
  /** How often to look for expired leases: well under the promised 5 s. */
  intervalMs?: number;
}

const IDEMPOTENCY_SWEEP_EVERY = 600;

/**
 * Releases expired locks (every `intervalMs`) and forgets idempotency keys past retention (every
 * few minutes). Every API process runs one; the conditional writes make them agree. A round
 * starts only after the previous one ended. Returns a function that stops it.
 */
export function startLockSweeper({ prisma, logger, intervalMs = 1000 }: LockSweeperOptions) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let round = 0;
  const sweep = async () => {
    try {
      const expired = await expireLeases(prisma);
      if (expired.length > 0) logger.info({ tables: expired }, 'expired locks released');
      if (round++ % IDEMPOTENCY_SWEEP_EVERY === 0) await deleteExpiredIdempotencyKeys(prisma);
    } catch (error) {
      logger.error({ err: error }, 'lock sweep failed');
    }
  };
  const schedule = () => {
    timer = setTimeout(() => {
      running = sweep().then(schedule);
    }, intervalMs);
  };
  schedule();
  return async () => {
    clearTimeout(timer);
    timer = undefined;
    await running;
    clearTimeout(timer);
  };
}
