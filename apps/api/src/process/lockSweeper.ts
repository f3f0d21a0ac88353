import type { PrismaClient } from '@tablelock/db';
import { deleteExpiredIdempotencyKeys } from '@tablelock/idempotency';
import { expireLeases, removeGoneWaiters, thawEndedFreezes } from '@tablelock/lock';
import type { Logger } from 'pino';
import { isDatabaseUnreachable } from './databaseUnreachable';

export interface LockSweeperOptions {
  prisma: PrismaClient;
  logger: Logger;
  /** Told how many locks each round released. */
  onExpired?: (count: number) => void;
  /** Told when a round found the database unreachable (instead of logging each failure). */
  onUnreachable?: (error: unknown) => void;
  /** How often to look for expired leases: well under the promised 5 s. */
  intervalMs?: number;
}

const IDEMPOTENCY_SWEEP_EVERY = 600;

/**
 * Releases expired locks, removes waiters that no longer count and ends freezes past their end
 * time (every `intervalMs`), and forgets idempotency keys past retention (every
 * few minutes). Every API process runs one; the conditional writes make them agree. A round
 * starts only after the previous one ended. Returns a function that stops it.
 */
export function startLockSweeper({
  prisma,
  logger,
  onExpired,
  onUnreachable,
  intervalMs = 1000,
}: LockSweeperOptions) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let round = 0;
  const sweep = async () => {
    try {
      const expired = await expireLeases(prisma);
      // Those behind a waiter whose process is gone, or whose turn went unused, move up.
      await removeGoneWaiters(prisma);
      const thawed = await thawEndedFreezes(prisma);
      if (thawed.length > 0) logger.info({ tables: thawed }, 'freezes ended');
      if (expired.length > 0) {
        logger.info({ tables: expired }, 'expired locks released');
        onExpired?.(expired.length);
      }
      if (round++ % IDEMPOTENCY_SWEEP_EVERY === 0) await deleteExpiredIdempotencyKeys(prisma);
    } catch (error) {
      if (onUnreachable && isDatabaseUnreachable(error)) onUnreachable(error);
      else logger.error({ err: error }, 'lock sweep failed');
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
