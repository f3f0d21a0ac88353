import {
  type PrismaClient,
  pendingMigrations,
  type ReplicationState,
  readReplicationState,
} from '@tablelock/db';
import type { Request, RequestHandler } from 'express';

/** What /readyz answers, with the database's replication state when it could be read. */
export type Readiness = { database?: ReplicationState } & (
  | { ready: true }
  | { ready: false; reason: string }
);

// A probe must get its answer even when the database does not answer at all.
const DATABASE_TIMEOUT_MS = 2_000;

export interface ReadinessOptions {
  migrationsDirectory?: string;
  /** REQUIRE_SYNC_REPLICA: not ready while no synchronous standby is attached. */
  requireSyncReplica?: boolean;
}

/**
 * Whether this instance can serve: the database answers and is a primary, every migration is
 * applied, the live feed is listening (without it, open pages would miss changes), and, with
 * REQUIRE_SYNC_REPLICA, a synchronous standby is attached and in sync.
 */
export function createReadinessCheck(
  prisma: PrismaClient,
  isListening: () => boolean,
  options: ReadinessOptions = {},
): () => Promise<Readiness> {
  return async () => {
    let pending: string[];
    let database: ReplicationState;
    try {
      [pending, database] = await withTimeout(
        Promise.all([
          pendingMigrations(prisma, options.migrationsDirectory),
          readReplicationState(prisma),
        ]),
        DATABASE_TIMEOUT_MS,
      );
    } catch {
      return { ready: false, reason: 'the database does not answer' };
    }
    const notReady = (reason: string): Readiness => ({ ready: false, reason, database });
    if (!database.primary) return notReady('the database is a standby');
    if (pending.length > 0) return notReady(`migrations not applied: ${pending.join(', ')}`);
    if (!isListening()) return notReady('the live feed is not listening');
    const inSync = database.synchronousStandbys.some((standby) => standby.inSync);
    if (options.requireSyncReplica && !inSync) {
      return notReady('no synchronous standby is attached');
    }
    return { ready: true, database };
  };
}

/**
 * `GET /readyz`: 200 when ready, else 503. Probes come from anywhere, at any Host: they get
 * only that. Why it is not ready and how the database is replicated (primary, timeline,
 * standbys' names) is for `isMetricsAudience`, who reads the same in /metrics.
 */
export function readinessEndpoint(
  check: () => Promise<Readiness>,
  isMetricsAudience: (request: Request) => boolean,
): RequestHandler {
  return async (request, response) => {
    const readiness = await check();
    const status = readiness.ready ? 'ready' : 'not ready';
    response.status(readiness.ready ? 200 : 503);
    if (!isMetricsAudience(request)) {
      response.json({ status });
      return;
    }
    const database = readiness.database ? { database: readiness.database } : {};
    const reason = readiness.ready ? {} : { reason: readiness.reason };
    response.json({ status, ...reason, ...database });
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
