import type { Queryable } from '@tablelock/db';

/** An endpoint's place in one table's events, with what a message to it needs. */
export interface StreamPlace {
  webhook_id: bigint;
  table_name: string;
  position: bigint;
  row_after: bigint | null;
  attempts: number;
  url: string;
  secret: string;
  event_types: string[];
  tables: string[];
  with_rows: boolean;
}

/** A stream this delivery holds: only the holder of `claim` may record what became of it. */
export interface Claimed extends StreamPlace {
  claim: string;
}

/**
 * Room in a claim's lease for what is not a send: reading the events, the durable barrier,
 * resolving the endpoint's address, recording the outcome.
 */
const LEASE_SLACK_MS = 5_000;

/**
 * How long a claim holds: its sends start within one time limit (`timeoutMs`) of the claim, and
 * the last ends within another. A process that dies mid-delivery leaves its streams to the
 * others after this.
 */
export function claimLeaseMs(timeoutMs: number): number {
  return 2 * timeoutMs + LEASE_SLACK_MS;
}

/**
 * Claims the stream whose turn came first (of `webhookId` only, when given) and commits the
 * claim at once: the delivery holds no transaction, and no connection, while it waits for its
 * receiver. A stream whose events all went, whose retry is not due yet, or that another
 * delivery holds (its lease not run out) is not claimed. The row locks (SKIP LOCKED) only keep
 * two claims from taking one stream at once, and pass over an endpoint being deleted.
 */
export async function claimStream(
  db: Queryable,
  timeoutMs: number,
  webhookId: string | undefined,
): Promise<Claimed | null> {
  const only = webhookId === undefined ? null : BigInt(webhookId);
  const [claimed] = await db.$queryRaw<Claimed[]>`
    WITH due AS (
      SELECT s.webhook_id, s.table_name
      FROM tablelock.webhook_stream AS s JOIN tablelock.webhook AS w ON w.id = s.webhook_id
      WHERE w.disabled_at IS NULL AND s.next_attempt_at <= now()
        AND (s.claimed_until IS NULL OR s.claimed_until <= now())
        AND (${only}::bigint IS NULL OR s.webhook_id = ${only}::bigint)
        AND (cardinality(w.tables) = 0 OR s.table_name = ANY (w.tables))
        AND EXISTS (SELECT 1 FROM tablelock.outbox_event AS o
                    WHERE o.table_name = s.table_name AND o.position > s.position)
      ORDER BY s.next_attempt_at
      LIMIT 1
      FOR UPDATE OF s SKIP LOCKED FOR KEY SHARE OF w SKIP LOCKED
    )
    UPDATE tablelock.webhook_stream AS s
    SET claim = gen_random_uuid(),
        claimed_until = now() + make_interval(secs => ${claimLeaseMs(timeoutMs) / 1000}::float8)
    FROM due, tablelock.webhook AS w
    WHERE s.webhook_id = due.webhook_id AND s.table_name = due.table_name
      AND w.id = due.webhook_id
    RETURNING s.webhook_id, s.table_name, s.position, s.row_after, s.attempts,
              s.claim::text AS claim, w.url, w.secret, w.event_types, w.tables, w.with_rows`;
  return claimed ?? null;
}

/** Gives a claim up without an outcome, if it is still this one: its messages go again. */
export async function releaseClaim(db: Queryable, claimed: Claimed): Promise<void> {
  await db.$executeRaw`
    UPDATE tablelock.webhook_stream SET claim = NULL, claimed_until = NULL
    WHERE webhook_id = ${claimed.webhook_id} AND table_name = ${claimed.table_name}
      AND claim = ${claimed.claim}::uuid`;
}
