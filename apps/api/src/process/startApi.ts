import { loadDemoData, type OpenDatabase, type PrismaClient } from '@tablelock/db';
import { ensureDemoUsers } from '@tablelock/identity';
import type { Logger } from 'pino';
import { discoverOidcProvider } from '../auth/oidc/oidcProvider';
import { allowedHostsOf, type Config, oidcSettingsOf, retentionSettingsOf } from '../config';
import { startApiServer } from '../http/server';
import { startRetentionSweeper } from '../retention/retentionSweeper';
import { startSortIndexSweeper } from '../sortIndexes/sortIndexSweeper';
import { syncMasterTables } from '../writeGuard/syncMasterTables';
import { startChangeScheduler } from './changeScheduler';
import { createApiServices } from './createApiServices';
import { startLockSweeper } from './lockSweeper';

/** Everything the API process runs on an open database: its services, sweepers and server. */
export async function startApi(
  config: Config,
  database: OpenDatabase,
  prisma: PrismaClient,
  logger: Logger,
) {
  const oidcSettings = oidcSettingsOf(config);
  const oidc = oidcSettings && (await discoverOidcProvider(oidcSettings));
  if (oidc)
    logger.info({ issuer: oidcSettings?.issuer.href }, 'single sign-on through OpenID Connect');
  // Demo data and demo users exist only on the embedded database, never on a real one.
  if (database.embedded) {
    if (await loadDemoData(database.url, config.MASTER_SCHEMA)) {
      logger.info({ schema: config.MASTER_SCHEMA }, 'demo master data loaded');
    }
    const created = await ensureDemoUsers(prisma, logger);
    if (created.length > 0) logger.info({ users: created }, 'demo users created');
  }
  await syncMasterTables(
    prisma,
    { masterSchema: config.MASTER_SCHEMA, writeGuardDefault: config.WRITE_GUARD_DEFAULT },
    logger,
  );
  const sortIndexesEnabled =
    (config.SORT_INDEXES ?? (database.embedded ? 'auto' : 'off')) === 'auto';
  const running = await createApiServices({
    prisma,
    directDatabaseUrl: database.directUrl,
    masterSchema: config.MASTER_SCHEMA,
    logger,
    sessionTtlSeconds: config.SESSION_TTL_HOURS * 3600,
    passwordLogin: config.PASSWORD_LOGIN,
    oidc,
    queueReservationSeconds: config.QUEUE_RESERVATION_SECONDS,
    maxWaitersPerPrincipal: config.MAX_WAITERS_PER_PRINCIPAL,
    minIdleLimitSeconds: config.IDLE_LIMIT_MIN_SECONDS,
    minLeaseSeconds: config.LEASE_MIN_SECONDS,
    historyRetentionDays: config.HISTORY_RETENTION_DAYS,
    sortIndexesEnabled,
    writeGuardDefault: config.WRITE_GUARD_DEFAULT,
    webhooks: {
      allowedHosts: config.WEBHOOK_ALLOWED_HOSTS,
      timeoutMs: config.WEBHOOK_TIMEOUT_SECONDS * 1000,
      giveUpSeconds: config.WEBHOOK_GIVE_UP_SECONDS,
      firstRetryMs: config.WEBHOOK_FIRST_RETRY_MS,
    },
    requireSyncReplica: config.REQUIRE_SYNC_REPLICA,
  });
  const { services } = running;
  const stopSweeper = startLockSweeper({
    prisma,
    logger,
    onExpired: services.metrics.recordLeaseExpiries,
    onUnreachable: services.databaseAvailability.reportUnreachable,
    listening: running.live,
    unfinishedLeaves: services.lockQueue.unfinishedLeaves,
  });
  const stopScheduler = startChangeScheduler({
    prisma,
    logger,
    masterSchema: config.MASTER_SCHEMA,
    scheduleChanges: running.live.scheduleChanges,
    lockChanges: services.lockChanges,
    owner: services.lockQueue.owner,
    unfinishedLeaves: services.lockQueue.unfinishedLeaves,
    maxDelaySeconds: config.SCHEDULE_MAX_DELAY_SECONDS,
    warningLeadSeconds: config.SCHEDULE_WARNING_LEAD_SECONDS,
    onUnreachable: services.databaseAvailability.reportUnreachable,
  });
  const retention = startRetentionSweeper(prisma, logger, retentionSettingsOf(config));
  const stopSortIndexSweeper = sortIndexesEnabled
    ? startSortIndexSweeper({
        sortIndexes: services.sortIndexes,
        logger,
        unusedDays: config.SORT_INDEX_UNUSED_DAYS,
      })
    : async () => {};
  const server = await startApiServer({
    services,
    port: config.PORT,
    host: config.HOST,
    trustProxy: config.TRUST_PROXY,
    allowedHosts: allowedHostsOf(config),
    readiness: running.readiness,
    drainMs: config.SHUTDOWN_DRAIN_SECONDS * 1000,
    keepAliveSeconds: config.HTTP_KEEP_ALIVE_SECONDS,
    webLeaseSeconds: config.WEB_LEASE_SECONDS,
    warmUp: config.WARM_UP,
    ...(config.METRICS_TOKEN ? { metricsToken: config.METRICS_TOKEN } : {}),
  });
  return {
    url: server.url,
    async stop() {
      await server.stop();
      await stopScheduler();
      await stopSweeper();
      await stopSortIndexSweeper();
      await retention.stop();
      await running.stop();
    },
  };
}

export type RunningApi = Awaited<ReturnType<typeof startApi>>;
