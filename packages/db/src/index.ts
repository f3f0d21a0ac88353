export { applyMigrations, migrationsDir, pendingMigrations } from './applyMigrations';
export { createDatabase } from './createDatabase';
export { withDatabase } from './databaseUrl';
export {
  type RunningPostgres,
  startEmbeddedPostgres,
} from './embeddedPostgres';
export { Prisma } from './generated/prisma/client';
export {
  LockAction,
  Role,
  RoleSource,
  SecurityAction,
  TableStatus,
  TakeOverRule,
} from './generated/prisma/enums';
export { loadDemoData } from './loadDemoData';
export { type OpenDatabase, openDatabase } from './openDatabase';
export { postgresErrorCode } from './postgresErrorCode';
export type { PostgresSupervision } from './postgresSupervisor';
export {
  type ConnectionPoolUsage,
  connectionPoolUsage,
  createPrismaClient,
  inTransaction,
  isPoolClient,
  MAX_PREPARED_STATEMENTS,
  type PrismaClient,
  type Queryable,
  statementsSent,
  type TransactionClient,
  withPoolConnection,
} from './prismaClient';
export { queryPrepared } from './queryPrepared';
export { quoteIdentifier } from './quoteIdentifier';
export { explainStartupFailure, StartupError } from './startupError';
