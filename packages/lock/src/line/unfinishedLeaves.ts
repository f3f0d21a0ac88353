import type { Queryable } from '@tablelock/db';
import { leaveLockQueue } from './lockQueue';

/**
 * How long a place whose join went unanswered is kept for a retry of the same request to take up
 * (see joinLockQueue): several times the 5 s a client is told to wait before it retries.
 */
export const UNANSWERED_JOIN_KEPT_MS = 30_000;

/**
 * Places in line this process holds but serves no more: a leave the database did not answer (an
 * outage, a failover), or a join whose answer was lost after its commit (OUTCOME_UNKNOWN). Their
 * rows would still count, since this process lives, and hold up everyone behind them for good;
 * the sweeper gives them up once the database answers again (an unanswered join after a while,
 * so that a retry can take it up first).
 */
export class UnfinishedLeaves {
  private readonly places = new Map<string, { reason: string; due: number }>();

  /** Leaves the line now; if that fails, remembers the place for `finish` and throws. */
  async leave(db: Queryable, attempt: string, reason: string): Promise<void> {
    try {
      await leaveLockQueue(db, attempt, reason);
    } catch (error) {
      this.places.set(attempt, { reason, due: 0 });
      throw error;
    }
  }

  /** Remembers the place a join may have made, though its answer was lost. */
  joinUnanswered(attempt: string, now = Date.now()): void {
    this.places.set(attempt, { reason: 'left', due: now + UNANSWERED_JOIN_KEPT_MS });
  }

  /**
   * Gives up every remembered place due by `now`; stops at the first that fails (the next round
   * tries again). A place a retry took up meanwhile is no longer this attempt's: it stays.
   */
  async finish(db: Queryable, now = Date.now()): Promise<number> {
    let left = 0;
    for (const [attempt, { reason, due }] of this.places) {
      if (due > now) continue;
      if (await leaveLockQueue(db, attempt, reason)) left++;
      this.places.delete(attempt);
    }
    return left;
  }
}
