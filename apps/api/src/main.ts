import {
  createPrismaClient,
  explainStartupFailure,
  loadDemoData,
  type OpenDatabase,
  openDatabase,
  type PrismaClient,
} from '@tablelock/db';
import { createLoginThrottle, createSignInRateLimit, ensureDemoUsers } from '@tablelock/identity';
import { syncTableRegistry, WaiterLimit } from '@tablelock/lock';
import { pino } from 'pino';
import { createCredentialCache } from './auth/credentialCache';
import { discoverOidcProvider, OidcDiscoveryFailed } from './auth/oidc/oidcProvider';
import { allowedHostsOf, loadConfig, oidcSettingsOf } from './config';
import { watchDatabaseAvailability } from './databaseAvailability';
import { startLiveFeeds } from './live/liveFeeds';
import { startLockSweeper } from './live/lockSweeper';
import { createApiMetrics } from './metrics/apiMetrics';
import { createReadinessCheck } from './readiness';
import { startApiServer } from './server';
import { createSortIndexes } from './sortIndexes';
import { startSortIndexSweeper } from './sortIndexSweeper';
import { stopWithin } from './stopWithin';

const config = loadConfig(process.env);
// Readable lines for a person at a terminal; JSON, one object a line, for log collectors.
const logger = pino({
  level: config.LOG_LEVEL,
  ...(process.stdout.isTTY
    ? { transport: { target: 'pino-pretty', options: { sync: true } } }
    : {}),
});
const embeddedDataDir = `${config.TABLELOCK_DATA_DIR}/postgres`;

async function start(database: OpenDatabase, prisma: PrismaClient) {
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
  const sync = await syncTableRegistry(prisma, config.MASTER_SCHEMA);
  logger.info({ ...sync }, 'table registry in sync with the master schema');
  const live = await startLiveFeeds(database.directUrl, logger);
  const metrics = createApiMetrics(prisma, live.lockChanges.activeSubscriptions);
  const databaseAvailability = watchDatabaseAvailability(prisma, logger);
  const stopSweeper = startLockSweeper({
    prisma,
    logger,
    onExpired: metrics.recordLeaseExpiries,
    onUnreachable: databaseAvailability.reportUnreachable,
  });
  const sortIndexesEnabled =
    (config.SORT_INDEXES ?? (database.embedded ? 'auto' : 'off')) === 'auto';
  const sortIndexes = createSortIndexes({
    enabled: sortIndexesEnabled,
    prisma,
    masterSchema: config.MASTER_SCHEMA,
    directDatabaseUrl: database.directUrl,
    logger,
  });
  const stopSortIndexSweeper = sortIndexesEnabled
    ? startSortIndexSweeper({ sortIndexes, logger, unusedDays: config.SORT_INDEX_UNUSED_DAYS })
    : async () => {};
  const server = await startApiServer({
    services: {
      prisma,
      masterSchema: config.MASTER_SCHEMA,
      logger,
      loginThrottle: createLoginThrottle(),
      sessionTtlSeconds: config.SESSION_TTL_HOURS * 3600,
      passwordLogin: config.PASSWORD_LOGIN,
      oidc,
      signInRateLimit: createSignInRateLimit(),
      lockChanges: live.lockChanges,
      lockQueue: {
        owner: live.queueOwner,
        reservationSeconds: config.QUEUE_RESERVATION_SECONDS,
        waiters: new WaiterLimit(config.MAX_WAITERS_PER_PRINCIPAL),
      },
      credentialChanges: live.credentialChanges,
      minIdleLimitSeconds: config.IDLE_LIMIT_MIN_SECONDS,
      minLeaseSeconds: config.LEASE_MIN_SECONDS,
      credentialCache: createCredentialCache(live.credentialChanges),
      metrics,
      databaseAvailability,
      sortIndexes,
    },
    port: config.PORT,
    host: config.HOST,
    trustProxy: config.TRUST_PROXY,
    allowedHosts: allowedHostsOf(config),
    readiness: createReadinessCheck(prisma, live.isListening),
    drainMs: config.SHUTDOWN_DRAIN_SECONDS * 1000,
    keepAliveSeconds: config.HTTP_KEEP_ALIVE_SECONDS,
    ...(config.METRICS_TOKEN ? { metricsToken: config.METRICS_TOKEN } : {}),
  });
  return {
    url: server.url,
    async stop() {
      await server.stop();
      await stopSweeper();
      await stopSortIndexSweeper();
      databaseAvailability.stop();
      await live.close();
    },
  };
}

// What is running so far: a signal or a failed start stops exactly that.
let database: OpenDatabase | undefined;
let prisma: PrismaClient | undefined;
let api: Awaited<ReturnType<typeof start>> | undefined;

/**
 * Every step is bounded (the drain plus 5 s in all): a hung one, say on a vanished database,
 * cannot hold the exit. A Postgres still stopping when the time is up is stopped by its watchdog.
 */
async function stop() {
  const drainMs = config.SHUTDOWN_DRAIN_SECONDS * 1000;
  await stopWithin(drainMs + 1_000, 'API server', () => api?.stop(), logger);
  await stopWithin(1_000, 'database connections', () => prisma?.$disconnect(), logger);
  await stopWithin(3_000, 'embedded Postgres', () => database?.close(), logger);
}

// This process stops its servers itself, embedded Postgres included, from the very start
// (@tablelock/db leaves signals and exit codes to it).
let stopping = false;
async function shutdown(signal: NodeJS.Signals) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down');
  await stop();
  logger.info('stopped');
  process.exit(0);
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);

try {
  database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    directDatabaseUrl: config.DATABASE_DIRECT_URL,
    dataDir: embeddedDataDir,
    embeddedPort: config.EMBEDDED_PG_PORT,
    onLog: (message) => logger.debug({ postgres: message.trim() }),
    onNotice: (message) => logger.warn(message),
    supervision: {
      onDied: (pid) =>
        logger.error({ pid }, 'embedded Postgres stopped unexpectedly; starting it again'),
      onRestartFailed: (reason, retryInMs) =>
        logger.warn({ reason, retryInMs }, 'embedded Postgres did not start; trying again'),
      onRestarted: (pid, downMs) => logger.info({ pid, downMs }, 'embedded Postgres running again'),
    },
  });
  prisma = createPrismaClient(database.url, {
    poolSize: config.DB_POOL_SIZE,
    preparedStatements: config.DATABASE_PREPARED_STATEMENTS,
  });
  api = await start(database, prisma);
  logger.info({ embeddedPostgres: database.embedded }, `tablelock API ready at ${api.url}/graphql`);
} catch (error) {
  // A signal during the start makes its steps fail; the shutdown then owns the exit.
  if (!stopping) {
    const reason =
      explainStartupFailure(error, config.DATABASE_URL ? undefined : embeddedDataDir) ??
      httpPortTaken(error) ??
      (error instanceof OidcDiscoveryFailed ? error.message : undefined);
    if (reason) logger.fatal(reason);
    else logger.fatal({ err: error }, 'start failed');
    await stop();
    process.exit(1);
  }
}

function httpPortTaken(error: unknown): string | undefined {
  if ((error as NodeJS.ErrnoException | undefined)?.code !== 'EADDRINUSE') return undefined;
  return `Port ${config.PORT} on ${config.HOST} is already in use by another program; stop that program or set PORT to a free port.`;
}
