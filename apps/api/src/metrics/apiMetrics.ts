import {
  connectionPoolUsage,
  type PrismaClient,
  readReplicationState,
  statementsSent,
} from '@tablelock/db';
import { readLockGauges } from '@tablelock/lock';
import { readChangeRequestGauges, readHistoryGauges } from '@tablelock/master-data';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { ApiMetrics, LockOperationResult } from '../ports/apiMetrics';

/**
 * What an operator watches (Prometheus, prom-client), every name starting with `tablelock_`.
 * Counters count what this process did; gauges of lock state are read from the database at
 * each scrape, so every instance reports the same, whole picture.
 */
export function createApiMetrics(
  prisma: PrismaClient,
  liveSubscriptions: () => number,
): ApiMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'tablelock_' });
  const registers = [registry];

  const lockOperations = new Counter({
    name: 'tablelock_lock_operations_total',
    help: 'Lock operations by operation and result (granted, refused, error).',
    labelNames: ['operation', 'result'] as const,
    registers,
  });
  const graphqlDuration = new Histogram({
    name: 'tablelock_graphql_request_duration_seconds',
    help: 'GraphQL operations over HTTP by their (first) root field.',
    labelNames: ['operation'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers,
  });
  const httpResponses = new Counter({
    name: 'tablelock_http_responses_total',
    help: 'HTTP responses by status code.',
    labelNames: ['code'] as const,
    registers,
  });
  const leaseExpiries = new Counter({
    name: 'tablelock_lease_expiries_total',
    help: 'Locks this process released because their lease ran out.',
    registers,
  });
  const takeOvers = new Counter({
    name: 'tablelock_take_overs_total',
    help: 'Locks taken over.',
    registers,
  });
  const forceReleases = new Counter({
    name: 'tablelock_force_releases_total',
    help: 'Locks force-released by an admin.',
    registers,
  });
  const fencingRefusals = new Counter({
    name: 'tablelock_fencing_refusals_total',
    help: 'Writes and renewals refused because their fencing token was no longer current (LOCK_LOST).',
    registers,
  });
  const saves = new Counter({
    name: 'tablelock_saves_total',
    help: 'Saves of master data committed.',
    registers,
  });
  const rowsSaved = new Counter({
    name: 'tablelock_rows_saved_total',
    help: 'Rows inserted, updated or deleted by saves.',
    registers,
  });
  new Gauge({
    name: 'tablelock_live_subscriptions',
    help: 'Live subscriptions open on this process.',
    registers,
    collect() {
      this.set(liveSubscriptions());
    },
  });
  new Gauge({
    name: 'tablelock_db_pool_connections',
    help: 'Database connections of this process by state (in_use, idle), and queries waiting for one.',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const usage = connectionPoolUsage(prisma);
      if (!usage) return;
      this.set({ state: 'in_use' }, usage.inUse);
      this.set({ state: 'idle' }, usage.idle);
      this.set({ state: 'waiting' }, usage.waiting);
    },
  });
  let statementsCounted = 0;
  new Counter({
    name: 'tablelock_db_statements_total',
    help: 'Statements this process sent to Postgres: one round trip each.',
    registers,
    collect() {
      const sent = statementsSent(prisma) ?? statementsCounted;
      this.inc(sent - statementsCounted);
      statementsCounted = sent;
    },
  });
  const databaseUp = new Gauge({
    name: 'tablelock_database_up',
    help: '1 when the database answered the last scrape, else 0.',
    registers,
  });
  const tables = new Gauge({
    name: 'tablelock_tables',
    help: 'Master tables by lock status.',
    labelNames: ['status'] as const,
    registers,
  });
  const oldestLockAge = new Gauge({
    name: 'tablelock_oldest_lock_age_seconds',
    help: 'How long the longest-held editing lock has been held (0 when none is).',
    registers,
  });
  const waiters = new Gauge({
    name: 'tablelock_lock_waiters',
    help: 'Waiters in the lock queue (all API processes).',
    registers,
  });
  const longestWait = new Gauge({
    name: 'tablelock_longest_wait_seconds',
    help: 'How long the first in the lock queue has waited (0 when nobody waits).',
    registers,
  });

  const unlockedWrites = new Gauge({
    name: 'tablelock_unlocked_writes',
    help: 'Writes to master tables without their lock (write guard RECORD) kept in the row history.',
    registers,
  });
  const historyBytes = new Gauge({
    name: 'tablelock_history_bytes',
    help: 'Disk taken by the row history (change sets and row changes, with indexes).',
    registers,
  });

  const changeRequests = new Gauge({
    name: 'tablelock_change_requests',
    help: "Four-eyes change requests by state (pending ones carry their table's lock).",
    labelNames: ['state'] as const,
    registers,
  });
  const databasePrimary = new Gauge({
    name: 'tablelock_database_primary',
    help: '1 when the database this process writes to is a primary, else 0.',
    registers,
  });
  const databaseTimeline = new Gauge({
    name: 'tablelock_database_timeline',
    help: "The primary's timeline: it grows by one at each promotion (failover).",
    registers,
  });
  const synchronousStandbys = new Gauge({
    name: 'tablelock_synchronous_standbys',
    help: 'Synchronous standbys attached to the primary (sync or quorum).',
    registers,
  });
  const synchronousStandbysInSync = new Gauge({
    name: 'tablelock_synchronous_standbys_in_sync',
    help: 'Synchronous standbys streaming, not catching up: what a commit can wait for.',
    registers,
  });

  /** Reads the lock state for the gauges; a database that does not answer is `database_up 0`. */
  async function readLockState() {
    try {
      const gauges = await readLockGauges(prisma);
      for (const [status, count] of Object.entries(gauges.tablesByStatus)) {
        tables.set({ status }, count);
      }
      oldestLockAge.set(gauges.oldestLockAgeSeconds);
      waiters.set(gauges.waiters);
      longestWait.set(gauges.longestWaitSeconds);
      const history = await readHistoryGauges(prisma);
      unlockedWrites.set(history.unlockedWrites);
      historyBytes.set(history.historyBytes);
      const requests = await readChangeRequestGauges(prisma);
      for (const [state, count] of Object.entries(requests)) changeRequests.set({ state }, count);
      const replication = await readReplicationState(prisma);
      databasePrimary.set(replication.primary ? 1 : 0);
      databaseTimeline.set(replication.timeline ?? 0);
      synchronousStandbys.set(replication.synchronousStandbys.length);
      synchronousStandbysInSync.set(
        replication.synchronousStandbys.filter((standby) => standby.inSync).length,
      );
      databaseUp.set(1);
    } catch {
      databaseUp.set(0);
    }
  }

  return {
    contentType: registry.contentType,
    async render(): Promise<string> {
      await readLockState();
      return registry.metrics();
    },
    recordLockOperation(operation: string, result: LockOperationResult) {
      lockOperations.inc({ operation, result });
      if (result !== 'granted') return;
      if (operation === 'takeOverTableLock') takeOvers.inc();
      if (operation === 'forceRelease') forceReleases.inc();
    },
    recordGraphqlRequest(operation: string, seconds: number) {
      graphqlDuration.observe({ operation }, seconds);
    },
    recordHttpResponse(code: number) {
      httpResponses.inc({ code: String(code) });
    },
    recordFencingRefusal() {
      fencingRefusals.inc();
    },
    recordLeaseExpiries(count: number) {
      leaseExpiries.inc(count);
    },
    recordSave(rows: number) {
      saves.inc();
      rowsSaved.inc(rows);
    },
  };
}
