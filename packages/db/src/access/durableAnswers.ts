import { AsyncLocalStorage } from 'node:async_hooks';
import { Prisma } from '../generated/prisma/client';
import { isOutcomeUnknown, OutcomeUnknownError } from './commitOutcome';
import type { PrismaClient } from './prismaClient';

/**
 * A commit that is sure to write WAL, so that Postgres makes it wait for the synchronous
 * standbys, when the server names any. `SELECT pg_current_xact_id()` is not enough: assigning
 * a transaction id writes no WAL, and Postgres waits for a standby only when the transaction
 * wrote WAL before its commit record (RecordTransactionCommit in xact.c decides `wrote_xlog`
 * first). A transactional logical message writes a WAL record and takes a transaction id, and
 * it changes no table. Without synchronous standbys named it is not emitted: no transaction id,
 * no WAL, nothing to wait for, one round trip.
 */
const DURABILITY_BARRIER = `SELECT pg_logical_emit_message(true, 'tablelock', 'durable')
  WHERE current_setting('synchronous_standby_names') <> ''`;

/** The barrier as a condition on each row a read finds: true once its message is emitted. */
const EMITTED_WHERE_STANDBYS_NAMED = Prisma.sql`(current_setting('synchronous_standby_names') = ''
  OR pg_logical_emit_message(true, 'tablelock', 'durable') IS NOT NULL)`;

const BARRIER_FAILED =
  'Whether the answer is on a synchronous standby could not be confirmed: a failover may lose it.';

/**
 * Waits until everything this primary has committed so far is on a synchronous standby (when
 * it names any). The commit of an answer's state may have been acknowledged without one: its
 * wait was cancelled (pg_cancel_backend, statement_timeout, a pooler), and Postgres then makes
 * it visible anyway, kept only locally. This barrier's own commit lies past every commit it
 * could have read, so once a standby has it, it has them (and the answer under way is then
 * durable: see noteConfirmedCommit). Rejects with OutcomeUnknownError when the wait is cut
 * short or the barrier fails: the state is on the primary, but may not last.
 */
export async function awaitDurableCommits(prisma: PrismaClient): Promise<void> {
  try {
    await prisma.$executeRawUnsafe(DURABILITY_BARRIER);
    noteConfirmedCommit();
  } catch (error) {
    if (isOutcomeUnknown(error)) throw error;
    throw new OutcomeUnknownError(BARRIER_FAILED, { cause: error });
  }
}

/**
 * Reads rows whose state an answer reports (`select`, a lone statement whose WHERE clause takes
 * `durable` as its last condition) and makes their state durable in the same statement: when it
 * finds a row, its commit is the barrier of awaitDurableCommits. A barrier of its own would run
 * on whichever server the pool reaches next: after a failover, on the new primary, where it
 * confirms nothing about a row read on the old one. A failed read is an unknown outcome only
 * when the barrier may have run; the connection or the server lost, it rejects as it came.
 */
export async function readDurably<T>(
  prisma: PrismaClient,
  select: (durable: Prisma.Sql) => Prisma.Sql,
): Promise<T[]> {
  const rows = await prisma.$queryRaw<T[]>(select(EMITTED_WHERE_STANDBYS_NAMED));
  if (rows.length > 0) noteConfirmedCommit();
  return rows;
}

interface AnswerScope {
  /** A commit that wrote WAL was confirmed after the state the answer reports was read. */
  confirmed: boolean;
}

const answerScopes = new AsyncLocalStorage<AnswerScope>();

/**
 * Runs `work` (and all it starts) as the making of one answer, for awaitDurableAnswer to judge:
 * an HTTP request, say, from its first middleware on.
 */
export function inAnswerScope<T>(work: () => T): T {
  return answerScopes.run({ confirmed: false }, work);
}

/**
 * Returns once the state the answer under way reports is durable: at once when it committed a
 * write whose wait for the standbys was confirmed (noteConfirmedCommit), which costs the first
 * run of a change nothing; else after awaitDurableCommits. Being safe is the default: a path
 * that writes and does not say so pays one barrier.
 */
export async function awaitDurableAnswer(prisma: PrismaClient): Promise<void> {
  if (answerScopes.getStore()?.confirmed) return;
  await awaitDurableCommits(prisma);
}

/** Runs `work`, whose answer reports state as done, and gives its answer once it is durable. */
export function answerDurably<T>(prisma: PrismaClient, work: () => Promise<T>): Promise<T> {
  return inAnswerScope(async () => {
    const answer = await work();
    await awaitDurableAnswer(prisma);
    return answer;
  });
}

/**
 * Says that a commit which wrote WAL has just been confirmed (it raised no OutcomeUnknownError)
 * and that the answer under way is built from what it read: its own wait for the standbys
 * covered every earlier commit. What the answer's nested fields read afterwards is the table's
 * state now, not the change it reports, and is not waited for.
 */
export function noteConfirmedCommit(): void {
  const scope = answerScopes.getStore();
  if (scope) scope.confirmed = true;
}
