import { randomUUID } from 'node:crypto';
import type { Queryable } from '@tablelock/db';
import { LockError } from '../core/lockError';
import { type JoinLockQueue, joinLockQueue, type LinePlace } from './lockQueue';
import type { UnfinishedLeaves } from './unfinishedLeaves';

export interface JoinLine extends Omit<JoinLockQueue, 'joinKey' | 'attempt'> {
  /** The same for every retry of one request (from its idempotency key); none: a join of its own. */
  joinKey?: string;
}

/** A request's place in line, and the attempt it leaves by. */
export type JoinedPlace = LinePlace & { attempt: string };

/**
 * Joins the line for one request (see joinLockQueue), under an attempt named before the insert
 * is sent. A join that failed other than by a refusal may have committed unseen (its answer was
 * lost): its place is left to `unfinished`, for the sweeper to give up unless a retry of the same
 * request takes it up first. The place's `attempt` is what the request leaves by.
 */
export async function joinLine(
  db: Queryable,
  request: JoinLine,
  unfinished: UnfinishedLeaves,
): Promise<JoinedPlace> {
  const attempt = randomUUID();
  try {
    const place = await joinLockQueue(db, {
      ...request,
      joinKey: request.joinKey ?? attempt,
      attempt,
    });
    return { ...place, attempt };
  } catch (error) {
    if (!(error instanceof LockError)) unfinished.joinUnanswered(attempt);
    throw error;
  }
}
