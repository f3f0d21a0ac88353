import { createHash } from 'node:crypto';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/prisma/client';

export type { PrismaClient };
export type TransactionClient = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];
/** Where a raw query can run: the client itself, or inside an interactive transaction. */
export type Queryable = PrismaClient | TransactionClient;

export interface PrismaClientOptions {
  /** Size of the connection pool behind the client. */
  poolSize?: number;
  /**
   * Keep each distinct SQL text as a named prepared statement on every connection, so Postgres
   * parses and plans it once. For the app's fixed set of queries; not for clients that run
   * ad-hoc scripts (migrations), whose texts would pile up and which may hold many statements.
   */
  preparedStatements?: boolean;
}

/** The app's only way to Postgres: Prisma Client on the Rust-free `pg` driver adapter. */
export function createPrismaClient(
  databaseUrl: string,
  options: PrismaClientOptions = {},
): PrismaClient {
  const adapter = new PrismaPg(
    { connectionString: databaseUrl, max: options.poolSize ?? 10 },
    options.preparedStatements
      ? {
          statementNameGenerator: (query) =>
            `tl_${createHash('sha1').update(query.sql).digest('base64url')}`,
        }
      : {},
  );
  return new PrismaClient({ adapter });
}

/**
 * Runs `work` in a transaction: a new one on a client, a nested one (a savepoint) on a
 * transaction client, so that callers may or may not already be in one.
 */
export function inTransaction<T>(
  db: Queryable,
  work: (tx: TransactionClient) => Promise<T>,
  options?: { timeout?: number },
): Promise<T> {
  // Prisma 7 nests $transaction on a transaction client as a savepoint (prisma/orm#21678);
  // its TransactionClient type does not list $transaction yet.
  return (db as PrismaClient).$transaction(work, options);
}
