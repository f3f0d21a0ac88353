import type { PrismaClient } from '@tablelock/db';
import {
  createLoginThrottle,
  createSignInRateLimit,
  DEFAULT_LOGIN_THROTTLE,
  DEFAULT_SIGN_IN_RATE_LIMIT,
  type LoginThrottleOptions,
  type SignInRateLimitOptions,
} from '@tablelock/identity';
import { UnfinishedLeaves, WaiterLimit } from '@tablelock/lock';
import type { WriteGuard } from '@tablelock/master-data';
import { type DeliverySettings, ROW_BATCH } from '@tablelock/outbox';
import type { Logger } from 'pino';
import { createCredentialCache } from '../auth/credentialCache';
import type { ApiServices } from '../context';
import { createReadinessCheck, type Readiness } from '../http/readiness';
import { type LiveFeeds, startLiveFeeds } from '../live/liveFeeds';
import { createApiMetrics } from '../metrics/apiMetrics';
import type { OidcProvider } from '../ports/oidcProvider';
import type { SortIndexes } from '../ports/sortIndexes';
import { createSortIndexes } from '../sortIndexes/sortIndexes';
import { startWebhookDelivery } from '../webhooks/webhookDelivery';
import { watchDatabaseAvailability } from './databaseAvailability';
import { guardReplication } from './replicationGuard';

export interface ApiServiceSettings {
  prisma: PrismaClient;
  /** The database without a pooler in between: LISTEN and index builds need a session. */
  directDatabaseUrl: string;
  masterSchema: string;
  logger: Logger;
  sessionTtlSeconds: number;
  passwordLogin: boolean;
  oidc: OidcProvider | null;
  queueReservationSeconds: number;
  /** MAX_WAITERS_PER_PRINCIPAL. */
  maxWaitersPerPrincipal: number;
  /** IDLE_LIMIT_MIN_SECONDS. */
  minIdleLimitSeconds: number;
  /** LEASE_MIN_SECONDS. */
  minLeaseSeconds: number;
  /** HISTORY_RETENTION_DAYS; kept for ever when not given. */
  historyRetentionDays?: number | undefined;
  /** Whether sorts may build indexes (SORT_INDEXES); ignored when `sortIndexes` is given. */
  sortIndexesEnabled: boolean;
  /** WRITE_GUARD_DEFAULT; RECORD when not given. */
  writeGuardDefault?: WriteGuard;
  /** Sort indexes built elsewhere (a test's own). */
  sortIndexes?: SortIndexes;
  loginThrottle?: LoginThrottleOptions;
  signInRateLimit?: SignInRateLimitOptions;
  /** Webhook deliveries (WEBHOOK_* settings); the defaults when not given. */
  webhooks?: Partial<DeliverySettings>;
  /** REQUIRE_SYNC_REPLICA: changes only while a synchronous standby is attached. */
  requireSyncReplica?: boolean;
}

/** WEBHOOK_TIMEOUT_SECONDS, WEBHOOK_GIVE_UP_SECONDS and the rest, as production has them. */
export const DEFAULT_WEBHOOK_DELIVERY: DeliverySettings = {
  allowedHosts: [],
  timeoutMs: 10_000,
  maxResponseBytes: 64 * 1024,
  firstRetryMs: 1_000,
  giveUpSeconds: 24 * 3600,
  rowBatch: ROW_BATCH,
  longestWaitMs: 5_000,
};

/** The services, and what the process around them needs to watch and stop them. */
export interface RunningApiServices {
  services: ApiServices;
  live: LiveFeeds;
  /** What `/readyz` answers. */
  readiness: () => Promise<Readiness>;
  stop(): Promise<void>;
}

/** Starts the shared services of one API process: the one wiring of ApiServices. */
export async function createApiServices(settings: ApiServiceSettings): Promise<RunningApiServices> {
  const { prisma, logger } = settings;
  const live = await startLiveFeeds(settings.directDatabaseUrl, logger);
  const databaseAvailability = watchDatabaseAvailability(prisma, logger);
  const webhooks = { ...DEFAULT_WEBHOOK_DELIVERY, ...settings.webhooks };
  const stopWebhookDelivery = startWebhookDelivery(
    prisma,
    webhooks,
    live.outboxCommits,
    logger,
    databaseAvailability.reportUnreachable,
  );
  const requireSyncReplica = settings.requireSyncReplica ?? false;
  const replication = guardReplication(prisma, requireSyncReplica, logger);
  const services: ApiServices = {
    prisma,
    masterSchema: settings.masterSchema,
    writeGuardDefault: settings.writeGuardDefault ?? 'RECORD',
    logger,
    loginThrottle: createLoginThrottle(settings.loginThrottle ?? DEFAULT_LOGIN_THROTTLE),
    sessionTtlSeconds: settings.sessionTtlSeconds,
    passwordLogin: settings.passwordLogin,
    oidc: settings.oidc,
    signInRateLimit: createSignInRateLimit(settings.signInRateLimit ?? DEFAULT_SIGN_IN_RATE_LIMIT),
    lockChanges: live.lockChanges,
    lockQueue: {
      owner: live.queueOwner,
      reservationSeconds: settings.queueReservationSeconds,
      waiters: new WaiterLimit(settings.maxWaitersPerPrincipal),
      unfinishedLeaves: new UnfinishedLeaves(),
    },
    credentialChanges: live.credentialChanges,
    minIdleLimitSeconds: settings.minIdleLimitSeconds,
    minLeaseSeconds: settings.minLeaseSeconds,
    historyRetentionDays: settings.historyRetentionDays ?? null,
    webhooks,
    credentialCache: createCredentialCache(live.credentialChanges),
    metrics: createApiMetrics(prisma, live.lockChanges.activeSubscriptions),
    databaseAvailability,
    replication,
    sortIndexes:
      settings.sortIndexes ??
      createSortIndexes({
        enabled: settings.sortIndexesEnabled,
        prisma,
        masterSchema: settings.masterSchema,
        directDatabaseUrl: settings.directDatabaseUrl,
        logger,
      }),
  };
  return {
    services,
    live,
    readiness: createReadinessCheck(prisma, live.isListening, { requireSyncReplica }),
    async stop() {
      await stopWebhookDelivery();
      databaseAvailability.stop();
      await live.close();
    },
  };
}
