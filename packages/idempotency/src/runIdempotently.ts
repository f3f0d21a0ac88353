import { createHash } from 'node:crypto';
import {
  isOutcomeUnknown,
  noteConfirmedCommit,
  Prisma,
  type PrismaClient,
  type Queryable,
  readDurably,
} from '@tablelock/db';
import { DomainError } from '@tablelock/errors';

export type IdempotencyErrorCode = 'BAD_USER_INPUT' | 'IDEMPOTENCY_KEY_REUSED';

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

/** A stored first run, as a replay reads it. */
interface StoredAnswer {
  operation: string;
  requestHash: string;
  response: unknown;
}
/** Keys are kept at least this long (the sweeper deletes older ones). */
export const IDEMPOTENCY_RETENTION_HOURS = 24;

export interface IdempotentRun<T> {
  /** An answer as stored (JSON) back into its type: dates come back as strings. */
  revive?: (stored: unknown) => T;
  /**
   * Whether an answer is kept for retries. One that is not (a refusal: someone else held what it
   * needed) still commits what it wrote, its audit event say, and a retry runs again.
   */
  keep?: (answer: T) => boolean;
}

/**
 * Runs `operation` at most once per idempotency key: the first run's answer is stored in the
 * same transaction as its effect; a retry with the same key and input gets that answer without
 * acting again; the same key with other input is IDEMPOTENCY_KEY_REUSED. A run that throws
 * stores nothing (and writes nothing), so its retry runs again. Without a request, just runs it.
 */
export async function runIdempotently<T>(
  prisma: PrismaClient,
  request: IdempotentRequest | null,
  operation: (db: Queryable) => Promise<T>,
  { revive = (stored) => stored as T, keep = () => true }: IdempotentRun<T> = {},
): Promise<T> {
  if (!request) return operation(prisma);
  if (request.key.length === 0 || request.key.length > MAX_KEY_LENGTH) {
    throw new DomainError<IdempotencyErrorCode>(
      'BAD_USER_INPUT',
      `idempotencyKey must have 1–${MAX_KEY_LENGTH} characters.`,
    );
  }
  const requestHash = createHash('sha256')
    .update(stableJson({ operation: request.operation, input: request.input }))
    .digest('hex');
  const replay = async () => {
    // The first run's commit may have been acknowledged without a standby (its wait cancelled):
    // its answer is given again only once a standby has it, confirmed by the server it is read
    // on (see readDurably).
    const [stored] = await readDurably<StoredAnswer>(
      prisma,
      (durable) => Prisma.sql`
        SELECT operation, request_hash AS "requestHash", response FROM tablelock.idempotency_key
        WHERE principal = ${request.principal} AND key = ${request.key} AND ${durable}`,
    );
    if (!stored) return undefined;
    if (stored.requestHash !== requestHash) {
      throw new DomainError<IdempotencyErrorCode>(
        'IDEMPOTENCY_KEY_REUSED',
        `idempotencyKey ${request.key} was used for a different request (${stored.operation}).`,
      );
    }
    return { result: revive(stored.response) };
  };
  const earlier = await replay();
  if (earlier) return earlier.result;
  try {
    const { result, stored } = await prisma.$transaction(
      async (tx) => {
        const result = await operation(tx);
        if (!keep(result)) return { result, stored: false };
        await tx.idempotencyKey.create({
          data: {
            principal: request.principal,
            key: request.key,
            operation: request.operation,
            requestHash,
            response: JSON.parse(JSON.stringify(result ?? null)),
          },
        });
        return { result, stored: true };
      },
      { timeout: 60_000 },
    );
    // Storing the key wrote WAL, so the commit waited for the standbys (or rejected).
    if (stored) noteConfirmedCommit();
    return result;
  } catch (error) {
    // Its own commit may be on the primary, or not; a retry asks, on whichever primary serves it.
    if (isOutcomeUnknown(error)) throw error;
    // A concurrent first run with the same key committed first (this run then failed on its
    // changed rows, or on the key itself): answer as that run did.
    const concurrent = await replay();
    if (concurrent) return concurrent.result;
    throw error;
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
