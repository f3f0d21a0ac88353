import { setTimeout } from 'node:timers/promises';
import {
  againIfRolledBack,
  databaseClient,
  type PrismaClient,
  quoteIdentifier,
} from '@tablelock/db';
import { type SecurityAudit, withSecurityEvents } from '@tablelock/identity';
import {
  MasterDataError,
  planSortIndex,
  SORT_INDEXES_PER_TABLE,
  type SortIndexPlan,
} from '@tablelock/master-data';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { SortIndexes } from '../ports/sortIndexes';
import {
  noteSortIndexUse,
  sortIndexesUnusedSince,
  type TrackedSortIndex,
  trackSortIndex,
  untrackUnusedSortIndex,
} from './sortIndexUse';

export interface SortIndexOptions {
  /** `SORT_INDEXES=auto`: off, nothing is ever built. */
  enabled: boolean;
  prisma: PrismaClient;
  masterSchema: string;
  /** The database without a pooler in between: a build outlasts any pooled transaction. */
  directDatabaseUrl: string;
  logger: Logger;
  /** Sort indexes on one table at most; sorts by further columns stay unindexed. */
  maxPerTable?: number;
  /** How long a failed build, or a table at its cap, is left alone before a sort tries again. */
  retryFailedAfterMs?: number;
  /** A process notes a sort's use of an index at most this often. */
  touchIntervalMs?: number;
  /** How often a build tries again for its table's lock while another process builds there. */
  lockRetryMs?: number;
  /** How long it tries; then a later sort does. */
  lockWaitMs?: number;
}

/** Each column's state in this process, once its first sort is settled. */
type Outcome =
  /** Our index serves it: its uses are noted. */
  | { kind: 'tracked'; index: string; touchedAt: number }
  /** Nothing to do, ever (a small table, someone else's index). */
  | { kind: 'settled' }
  /** Not built this time (a failure, the table's cap): a sort after `at` tries again. */
  | { kind: 'retry'; at: number };

/** A build that deadlocks or loses a serialization race is tried again at once, so often. */
const BUILD_ATTEMPTS = 3;
/** The first key of the advisory locks that serialise builds per table ("tlsi"). */
const SORT_INDEX_LOCK_SPACE = 0x746c7369;

/**
 * The master tables are the business's, not tablelock's: it adds only indexes named
 * `tlsort_…`, built CONCURRENTLY (writers are not blocked), only on tables of 10,000 rows or
 * more, for a column no btree index starts with, and at most `maxPerTable` per table. Builds
 * on one table take turns: in this process one after another, across processes on an advisory
 * lock, since two concurrent builds on one table deadlock. Each is a security event in the name
 * of the user whose sort caused it. A failed build is logged and tried again at a sort after
 * `retryFailedAfterMs`; a deadlock is retried at once.
 */
export function createSortIndexes(options: SortIndexOptions): SortIndexes {
  const { enabled, prisma, masterSchema, directDatabaseUrl, logger } = options;
  const maxPerTable = options.maxPerTable ?? SORT_INDEXES_PER_TABLE;
  const retryFailedAfterMs = options.retryFailedAfterMs ?? 10 * 60_000;
  const touchIntervalMs = options.touchIntervalMs ?? 60_000;
  const lockRetryMs = options.lockRetryMs ?? 1000;
  const lockWaitMs = options.lockWaitMs ?? 5 * 60_000;
  const outcomes = new Map<string, Promise<Outcome>>();
  const turns = new Map<string, Promise<unknown>>();
  const keyOf = (table: string, column: string) => JSON.stringify([table, column]);
  const retryLater = (): Outcome => ({ kind: 'retry', at: Date.now() + retryFailedAfterMs });
  /** Another process is at it: the next sort looks again. */
  const retryNextSort = (): Outcome => ({ kind: 'retry', at: Date.now() });

  /** Runs `work` after this process's earlier work on `table`. */
  function inTurn<T>(table: string, work: () => Promise<T>): Promise<T> {
    const mine = (turns.get(table) ?? Promise.resolve()).then(work);
    const done = mine.catch(() => {});
    turns.set(table, done);
    void done.then(() => {
      if (turns.get(table) === done) turns.delete(table);
    });
    return mine;
  }

  /**
   * `work` on a connection of its own that holds `table`'s advisory lock, over all API
   * processes; null when another process held it all along `lockWaitMs`. The lock is tried
   * again every `lockRetryMs` from an idle connection, never waited for in a statement: a
   * session waiting for a lock holds a snapshot, which the holder's CREATE INDEX CONCURRENTLY
   * waits for in turn (a deadlock).
   */
  async function withTableLock<T>(table: string, work: (client: pg.Client) => Promise<T>) {
    const client = databaseClient(directDatabaseUrl);
    // A dropped connection also fails the statement, which reports it.
    client.on('error', () => {});
    await client.connect();
    try {
      const giveUpAt = Date.now() + lockWaitMs;
      for (;;) {
        // Session-level (CREATE INDEX CONCURRENTLY runs outside a transaction); ends with it.
        const { rows } = await client.query<{ locked: boolean }>(
          'SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked',
          [SORT_INDEX_LOCK_SPACE, `${masterSchema}.${table}`],
        );
        if (rows[0]?.locked) return await work(client);
        if (Date.now() >= giveUpAt) return null;
        await setTimeout(lockRetryMs * (0.5 + Math.random()));
      }
    } finally {
      await client.end();
    }
  }

  async function settle(plan: SortIndexPlan, table: string, column: string): Promise<Outcome> {
    if (plan.action === 'build') throw new Error('a build plan is not settled');
    if (plan.reason === 'indexed' && plan.ownIndex) {
      await trackSortIndex(prisma, { index: plan.ownIndex, table, column });
      return { kind: 'tracked', index: plan.ownIndex, touchedAt: Date.now() };
    }
    if (plan.reason === 'too many sort indexes') {
      logger.info(
        { table, column, maxPerTable },
        'not building a sort index: the table has as many as it may; sorting by this column stays slower',
      );
      return retryLater();
    }
    // Another process is building it: a later sort finds it built and notes its use.
    if (plan.reason === 'building') return retryNextSort();
    return { kind: 'settled' };
  }

  async function build(table: string, column: string, requester: SecurityAudit) {
    const built = await withTableLock(table, async (client): Promise<Outcome> => {
      const plan = await againIfRolledBack(BUILD_ATTEMPTS, async () => {
        // Planned again under the lock, and at each try: an index built meanwhile counts, here
        // and in the cap.
        const plan = await planSortIndex(prisma, masterSchema, table, column, { maxPerTable });
        if (plan.action === 'none') return plan;
        logger.info({ table, column, index: plan.index }, 'building a sort index');
        for (const statement of plan.statements) await client.query(statement);
        return plan;
      });
      if (plan.action === 'none') return settle(plan, table, column);
      await recordBuild(prisma, { index: plan.index, table, column }, requester);
      logger.info({ table, column, index: plan.index }, 'sort index built');
      return { kind: 'tracked', index: plan.index, touchedAt: Date.now() };
    });
    return built ?? retryNextSort();
  }

  async function ensure(table: string, column: string, requester: SecurityAudit) {
    try {
      // A first look on the pool: most sorts need no build, and no connection of their own.
      const plan = await planSortIndex(prisma, masterSchema, table, column, { maxPerTable });
      if (plan.action === 'none') return await settle(plan, table, column);
      return await inTurn(table, () => build(table, column, requester));
    } catch (error) {
      // Names that are not a master table's column: the page request says so to its caller,
      // and they are not remembered (callers choose them).
      if (error instanceof MasterDataError) {
        outcomes.delete(keyOf(table, column));
        return { kind: 'settled' } satisfies Outcome;
      }
      logger.warn(
        { err: error, table, column },
        'could not build a sort index; sorting by this column stays slower on large tables',
      );
      return retryLater();
    }
  }

  /** A later sort by a column already settled: notes the index's use, or tries again. */
  async function revisit(key: string, outcome: Outcome, start: () => Promise<void>) {
    if (outcome.kind === 'retry' && Date.now() >= outcome.at) {
      outcomes.delete(key);
      return start();
    }
    if (outcome.kind !== 'tracked' || Date.now() - outcome.touchedAt < touchIntervalMs) return;
    outcome.touchedAt = Date.now();
    try {
      // Dropped meanwhile (by another process's sweep): the next sort builds it again.
      if (!(await noteSortIndexUse(prisma, outcome.index))) outcomes.delete(key);
    } catch (error) {
      logger.warn({ err: error, index: outcome.index }, 'could not note a sort index use');
    }
  }

  return {
    request(table, column, requester) {
      if (!enabled) return Promise.resolve();
      const key = keyOf(table, column);
      const start = (): Promise<void> => {
        const settled = outcomes.get(key);
        if (settled) return settled.then((outcome) => revisit(key, outcome, start));
        const first = ensure(table, column, requester);
        outcomes.set(key, first);
        return first.then(() => {});
      };
      return start();
    },

    async dropUnused(unusedSince) {
      let dropped = 0;
      for (const unused of await sortIndexesUnusedSince(prisma, unusedSince)) {
        const done = await inTurn(unused.table, () =>
          withTableLock(unused.table, async (client) => {
            // Only if no sort used it since the list was read: that sort keeps it.
            if (!(await untrackUnusedSortIndex(prisma, unused.index, unusedSince))) return false;
            outcomes.delete(keyOf(unused.table, unused.column));
            await client.query(
              `DROP INDEX CONCURRENTLY IF EXISTS ${quoteIdentifier(masterSchema)}.${quoteIdentifier(unused.index)}`,
            );
            await recordDrop(prisma, unused, logger);
            return true;
          }),
        ).then(
          (done) => done === true,
          (error: unknown) => {
            logger.warn({ err: error, index: unused.index }, 'could not drop an unused sort index');
            return false;
          },
        );
        if (done) dropped++;
      }
      return dropped;
    },
  };
}

function recordBuild(prisma: PrismaClient, built: TrackedSortIndex, requester: SecurityAudit) {
  return withSecurityEvents(prisma, requester.logger, async (tx, record) => {
    await trackSortIndex(tx, built);
    await record({
      action: 'sort_index_built',
      actor: requester.actor,
      subject: built.table,
      ip: requester.ip,
      details: { changes: { column: built.column, index: built.index } },
    });
  });
}

function recordDrop(
  prisma: PrismaClient,
  dropped: TrackedSortIndex & { lastUsedAt: Date },
  logger: Logger,
) {
  return withSecurityEvents(prisma, logger, (_tx, record) =>
    record({
      action: 'sort_index_dropped',
      actor: 'system',
      subject: dropped.table,
      ip: null,
      details: {
        changes: {
          column: dropped.column,
          index: dropped.index,
          lastUsedAt: dropped.lastUsedAt.toISOString(),
        },
      },
    }),
  );
}
