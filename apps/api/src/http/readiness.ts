import {
  type PrismaClient,
  pendingMigrations,
  type ReplicationState,
  readReplicationState,
} from '@tablelock/db';
import type { RequestHandler } from 'express';

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

/** `GET /readyz`: 200 when ready, else 503 with the reason; the database's state either way. */
export function readinessEndpoint(check: () => Promise<Readiness>): RequestHandler {
  return async (_request, response) => {
    const readiness = await check();
    const database = readiness.database ? { database: readiness.database } : {};
    if (readiness.ready) response.json({ status: 'ready', ...database });
    else {
      response.status(503).json({ status: 'not ready', reason: readiness.reason, ...database });
    }
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
