import { createHash } from 'node:crypto';
import type { PrismaClient, Queryable } from '@tablelock/db';
import { LockError } from './lockError';
import { recordLockEvent } from './lockEvent';

/** A state-changing request made with an idempotency key. */
export interface IdempotentRequest {
  /** Whose key it is: keys of different callers never meet. */
  principal: string;
  key: string;
  /** The operation's name; with `input`, what a retry must repeat exactly. */
  operation: string;
  input: unknown;
}

const MAX_KEY_LENGTH = 200;
/** Keys are kept at least this long (the sweeper deletes older ones). */
export const IDEMPOTENCY_RETENTION_HOURS = 24;

/**
 * Runs `operation` at most once per idempotency key: the first run's answer is stored in the
 * same transaction as its effect; a retry with the same key and input gets that answer without
 * acting again; the same key with other input is IDEMPOTENCY_KEY_REUSED. A run that throws
 * stores nothing, so its retry runs again; the audit event a refusal carries is written after
 * its transaction. Without a request, just runs it (and records its refusal's event).
 */
export async function runIdempotently<T>(
  prisma: PrismaClient,
  request: IdempotentRequest | null,
  operation: (db: Queryable) => Promise<T>,
  revive: (stored: unknown) => T = (stored) => stored as T,
): Promise<T> {
  if (!request) {
    return operation(prisma).catch(async (error: unknown) => {
      await recordCarriedEvent(prisma, error);
      throw error;
    });
  }
  if (request.key.length === 0 || request.key.length > MAX_KEY_LENGTH) {
    throw new LockError(
      'BAD_USER_INPUT',
      `idempotencyKey must have 1–${MAX_KEY_LENGTH} characters.`,
    );
  }
  const requestHash = createHash('sha256')
    .update(stableJson({ operation: request.operation, input: request.input }))
    .digest('hex');
  const replay = async () => {
    const stored = await prisma.idempotencyKey.findUnique({
      where: { principal_key: { principal: request.principal, key: request.key } },
    });
    if (!stored) return undefined;
    if (stored.requestHash !== requestHash) {
      throw new LockError(
        'IDEMPOTENCY_KEY_REUSED',
        `idempotencyKey ${request.key} was used for a different request (${stored.operation}).`,
      );
    }
    return { result: revive(stored.response) };
  };
  const earlier = await replay();
  if (earlier) return earlier.result;
  try {
    return await prisma.$transaction(
      async (tx) => {
        const result = await operation(tx);
        await tx.idempotencyKey.create({
          data: {
            principal: request.principal,
            key: request.key,
            operation: request.operation,
            requestHash,
            response: JSON.parse(JSON.stringify(result ?? null)),
          },
        });
        return result;
      },
      { timeout: 60_000 },
    );
  } catch (error) {
    await recordCarriedEvent(prisma, error);
    // A concurrent first run with the same key committed first (this run then failed on its
    // changed rows, or on the key itself): answer as that run did.
    const concurrent = await replay();
    if (concurrent) return concurrent.result;
    throw error;
  }
}

/** Writes the audit event a refusal carries, now that the transaction it failed in is over. */
async function recordCarriedEvent(prisma: PrismaClient, error: unknown): Promise<void> {
  if (error instanceof LockError && error.unrecordedEvent) {
    await recordLockEvent(prisma, error.unrecordedEvent, false);
  }
}

/** JSON with object keys sorted, so that equal inputs hash equally whatever their key order. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Deletes idempotency keys past their retention; returns how many. */
export async function deleteExpiredIdempotencyKeys(db: Queryable): Promise<number> {
  return db.$executeRaw`
    DELETE FROM tablelock.idempotency_key
    WHERE created_at < now() - make_interval(hours => ${IDEMPOTENCY_RETENTION_HOURS + 1})`;
}
