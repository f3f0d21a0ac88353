import type { Queryable } from '@tablelock/db';
import { leaveLockQueue } from './lockQueue';

/**
 * Places in line this process failed to give up because the database did not answer (an
 * outage, a failover). Their rows would still count, since this process lives, and hold up
 * everyone behind them for good; the sweeper gives them up once the database answers again.
 */
export class UnfinishedLeaves {
  private readonly reasons = new Map<string, string>();

  /** Leaves the line now; if that fails, remembers the place for `finish` and throws. */
  async leave(db: Queryable, waiterId: string, reason: string): Promise<void> {
    try {
      await leaveLockQueue(db, waiterId, reason);
    } catch (error) {
      this.reasons.set(waiterId, reason);
      throw error;
    }
  }

  /** Gives up every remembered place; stops at the first that fails (the next round tries again). */
  async finish(db: Queryable): Promise<number> {
    let left = 0;
    for (const [waiterId, reason] of this.reasons) {
      if (await leaveLockQueue(db, waiterId, reason)) left++;
      this.reasons.delete(waiterId);
    }
    return left;
  }
}
