import type { PrismaClient } from '@tablelock/db';
import { deleteExpiredIdempotencyKeys } from '@tablelock/idempotency';
import {
  expireLeases,
  expireRowScopes,
  removeGoneWaiters,
  thawEndedFreezes,
  type UnfinishedLeaves,
} from '@tablelock/lock';
import type { Logger } from 'pino';
import { reportRoundFailure } from './reportRoundFailure';

export interface LockSweeperOptions {
  prisma: PrismaClient;
  logger: Logger;
  /** Told how many locks each round released. */
  onExpired?: (count: number) => void;
  /** Told when a round found the database unreachable (instead of logging each failure). */
  onUnreachable?: (error: unknown) => void;
  /** How often to look for expired leases: well under the promised 5 s. */
  intervalMs?: number;
  /** This process's LISTEN connection: whether it is up, and when it last came back. */
  listening?: { isListening(): boolean; reconnectedAt(): number | undefined };
  /** This process's places in line that it could not give up when their waits ended. */
  unfinishedLeaves?: UnfinishedLeaves;
}

const IDEMPOTENCY_SWEEP_EVERY = 600;
/**
 * How long after its LISTEN connection came back (and while it is down) this process keeps the
 * waiters of processes not connected: after a failover every process reconnects (within 10 s),
 * and one still on its way is alive, its waiters in line.
 */
const RECONNECT_GRACE_MS = 15_000;

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
  listening = { isListening: () => true, reconnectedAt: () => undefined },
  unfinishedLeaves,
}: LockSweeperOptions) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let round = 0;
  const sweep = async () => {
    try {
      const expired = await expireLeases(prisma);
      const expiredScopes = await expireRowScopes(prisma);
      if (expiredScopes > 0) logger.info({ rowScopes: expiredScopes }, 'expired row scopes ended');
      await unfinishedLeaves?.finish(prisma);
      // Those behind a waiter whose process is gone, or whose turn went unused, move up.
      const settled = Date.now() >= (listening.reconnectedAt() ?? 0) + RECONNECT_GRACE_MS;
      if (listening.isListening() && settled) {
        await removeGoneWaiters(prisma);
      }
      const thawed = await thawEndedFreezes(prisma);
      if (thawed.length > 0) logger.info({ tables: thawed }, 'freezes ended');
      if (expired.length > 0) {
        logger.info({ tables: expired }, 'expired locks released');
        onExpired?.(expired.length);
      }
      if (round++ % IDEMPOTENCY_SWEEP_EVERY === 0) await deleteExpiredIdempotencyKeys(prisma);
    } catch (error) {
      reportRoundFailure(error, {
        logger,
        onUnreachable,
        cutOff: 'lock sweep cut off at its commit; the next round sweeps again',
        failed: 'lock sweep failed',
        failedLevel: 'error',
      });
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
