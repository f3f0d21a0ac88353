export { againIfRolledBack } from './access/againIfRolledBack';
export { isOutcomeUnknown, OutcomeUnknownError } from './access/commitOutcome';
export { createDatabase } from './access/createDatabase';
export { withDatabase } from './access/databaseUrl';
export {
  answerDurably,
  awaitDurableAnswer,
  awaitDurableCommits,
  inAnswerScope,
  noteConfirmedCommit,
  readDurably,
} from './access/durableAnswers';
export {
  HISTORY_COUNT_LIMIT,
  type HistoryBound,
  type HistoryPage,
  type HistoryReads,
  readHistoryPage,
} from './access/historyPage';
export { type HistoryPurgeRecord, recordHistoryPurge } from './access/historyPurgeRecord';
export { postgresErrorCode } from './access/postgresErrorCode';
export { isPostgresUrl } from './access/postgresHosts';
export { databaseClient } from './access/primaryClient';
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
} from './access/prismaClient';
export { queryPrepared } from './access/queryPrepared';
export { quoteIdentifier } from './access/quoteIdentifier';
export {
  type ReplicationState,
  readReplicationState,
  type SynchronousStandby,
} from './access/replicationState';
export type { ChangeRequest, Edition, LockSettings } from './generated/prisma/client';
export { Prisma } from './generated/prisma/client';
export {
  LockAction,
  Role,
  RoleSource,
  SecurityAction,
  TableStatus,
  TakeOverRule,
  WriteGuard,
} from './generated/prisma/enums';
export { applyMigrations, migrationsDir, pendingMigrations } from './runtime/applyMigrations';
export {
  type RunningPostgres,
  startEmbeddedPostgres,
} from './runtime/embeddedPostgres';
export { loadDemoData } from './runtime/loadDemoData';
export { type OpenDatabase, openDatabase } from './runtime/openDatabase';
export { openOperatorDatabase } from './runtime/openOperatorDatabase';
export type { PostgresSupervision } from './runtime/postgresSupervisor';
export { type RunningProcess, runningProcess } from './runtime/runningProcess';
export { explainStartupFailure, StartupError } from './runtime/startupError';
