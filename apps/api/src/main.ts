import { createPrismaClient, loadDemoData, openDatabase } from '@tablelock/db';
import { createLoginThrottle, ensureDemoUsers } from '@tablelock/identity';
import { syncTableRegistry } from '@tablelock/lock';
import { pino } from 'pino';
import { allowedHostsOf, loadConfig } from './config';
import { startLockChangeFeed } from './live/lockChangeFeed';
import { startLockSweeper } from './live/lockSweeper';
import { startApiServer } from './server';

const config = loadConfig(process.env);
const logger = pino({ level: config.LOG_LEVEL });

const database = await openDatabase({
  databaseUrl: config.DATABASE_URL,
  dataDir: `${config.TABLELOCK_DATA_DIR}/postgres`,
  embeddedPort: config.EMBEDDED_PG_PORT,
  onLog: (message) => logger.debug({ postgres: message.trim() }),
});
const prisma = createPrismaClient(database.url, {
  poolSize: config.DB_POOL_SIZE,
  preparedStatements: true,
});

async function start() {
  // Demo data and demo users exist only on the embedded database, never on a real one.
  if (database.embedded) {
    if (await loadDemoData(database.url, config.MASTER_SCHEMA)) {
      logger.info({ schema: config.MASTER_SCHEMA }, 'demo master data loaded');
    }
    const created = await ensureDemoUsers(prisma);
    if (created.length > 0) logger.info({ users: created }, 'demo users created');
  }
  const sync = await syncTableRegistry(prisma, config.MASTER_SCHEMA);
  logger.info({ ...sync }, 'table registry in sync with the master schema');
  const lockChanges = await startLockChangeFeed(database.url, logger);
  const stopSweeper = startLockSweeper({ prisma, logger });
  const server = await startApiServer({
    services: {
      prisma,
      masterSchema: config.MASTER_SCHEMA,
      logger,
      loginThrottle: createLoginThrottle(),
      sessionTtlSeconds: config.SESSION_TTL_HOURS * 3600,
      lockChanges,
    },
    port: config.PORT,
    host: config.HOST,
    trustProxy: config.TRUST_PROXY,
    allowedHosts: allowedHostsOf(config),
  });
  return {
    url: server.url,
    async stop() {
      await server.stop();
      await stopSweeper();
      await lockChanges.close();
    },
  };
}

async function stop(api?: { stop(): Promise<void> }) {
  await api?.stop();
  await prisma.$disconnect();
  await database.close();
}

try {
  const api = await start();
  logger.info({ embeddedPostgres: database.embedded }, `tablelock API ready at ${api.url}/graphql`);
  let stopping = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    await stop(api);
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
} catch (error) {
  logger.fatal({ err: error }, 'start failed');
  await stop();
  process.exit(1);
}
