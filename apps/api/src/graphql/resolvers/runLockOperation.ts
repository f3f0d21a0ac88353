import type { PrismaClient, Queryable } from '@tablelock/db';
import { type IdempotentRequest, runIdempotently } from '@tablelock/idempotency';
import { grantedOrConflict, isGranted, type LockAnswer } from '@tablelock/lock';

/**
 * Runs lock operations once per idempotency key when the caller sent one: a grant is kept for
 * retries; a refusal (recorded in the history already) is not — a retry may find the way free.
 */
export function onceForKey<T>(
  prisma: PrismaClient,
  request: IdempotentRequest | null,
  revive: (stored: unknown) => T = (stored) => stored as T,
) {
  return (operation: (db: Queryable) => Promise<LockAnswer<T>>): Promise<LockAnswer<T>> =>
    runIdempotently(prisma, request, operation, {
      keep: isGranted,
      revive: (stored) => ({ granted: revive((stored as { granted: unknown }).granted) }),
    });
}

/**
 * Runs a lock operation, once per idempotency key (see onceForKey); a refusal answers
 * LOCK_CONFLICT, naming who is in the way.
 */
export async function runLockOperation<T>(
  prisma: PrismaClient,
  request: IdempotentRequest | null,
  operation: (db: Queryable) => Promise<LockAnswer<T>>,
  revive?: (stored: unknown) => T,
): Promise<T> {
  return grantedOrConflict(await onceForKey(prisma, request, revive)(operation));
}
