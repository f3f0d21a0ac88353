import { writeFileSync } from 'node:fs';
import {
  createPrismaClient,
  explainStartupFailure,
  type OpenDatabase,
  openDatabase,
  type PrismaClient,
} from '@tablelock/db';
import { pino } from 'pino';
import { OidcDiscoveryFailed } from './auth/oidc/oidcProvider';
import { loadConfig } from './config';
import { type RunningApi, startApi } from './process/startApi';
import { stopWithin } from './process/stopWithin';
import { whenProcessEnds } from './process/whenProcessEnds';
import { flushAndStopTracing } from './tracing/runningTracing';

const config = loadConfig(process.env);
// Readable lines for a person at a terminal; JSON, one object a line, for log collectors.
const logger = pino({
  level: config.LOG_LEVEL,
  ...(process.stdout.isTTY
    ? { transport: { target: 'pino-pretty', options: { sync: true } } }
    : {}),
});
const embeddedDataDir = `${config.TABLELOCK_DATA_DIR}/postgres`;
if (config.TABLELOCK_APP_PID_FILE)
  writeFileSync(config.TABLELOCK_APP_PID_FILE, String(process.pid));

// What is running so far: a signal or a failed start stops exactly that.
let database: OpenDatabase | undefined;
let prisma: PrismaClient | undefined;
let api: RunningApi | undefined;

/**
 * Every step is bounded (the drain plus 5 s in all; 7 s when traces are exported): a hung one,
 * say on a vanished database, cannot hold the exit. A Postgres still stopping when the time is
 * up is stopped by its watchdog.
 */
async function stop() {
  const drainMs = config.SHUTDOWN_DRAIN_SECONDS * 1000;
  await stopWithin(drainMs + 1_000, 'API server', () => api?.stop(), logger);
  await stopWithin(1_000, 'database connections', () => prisma?.$disconnect(), logger);
  await stopWithin(3_000, 'embedded Postgres', () => database?.close(), logger);
  // Last, so that the spans of the requests drained above leave too.
  await stopWithin(2_000, 'trace export', () => flushAndStopTracing(), logger);
}

// This process stops its servers itself, embedded Postgres included, from the very start
// (@tablelock/db leaves signals and exit codes to it).
let stopping = false;
async function shutdown(cause: NodeJS.Signals | 'start command gone') {
  if (stopping) return;
  stopping = true;
  logger.info({ cause }, 'shutting down');
  await stop();
  logger.info('stopped');
  process.exit(0);
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
process.on('SIGHUP', shutdown);
if (config.TABLELOCK_STOP_WITH_PID) {
  whenProcessEnds(config.TABLELOCK_STOP_WITH_PID, () => shutdown('start command gone'));
}

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
    onNotice: (message) => logger.warn(message),
  });
  api = await startApi(config, database, prisma, logger);
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
