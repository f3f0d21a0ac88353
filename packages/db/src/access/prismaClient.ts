import { createHash } from 'node:crypto';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client';
import { outcomeCheckingClient } from './commitOutcome';
import { primaryOnlyServers } from './postgresHosts';
import { firstServerUrl, primaryClientClass } from './primaryClient';
import { primaryLocatorFor } from './primaryLocator';

export type { PrismaClient };

/**
 * How many distinct SQL texts a process keeps as named prepared statements, on each pooled
 * connection. Postgres holds every one in the backend's memory until the connection closes,
 * and some texts take their shape from the caller (a grid's filters in any order): past the
 * bound, new texts run unnamed. The app's own fixed-shape statements (the lock path, sign-in)
 * are a few dozen and run from the first seconds on, so they are the ones kept.
 */
export const MAX_PREPARED_STATEMENTS = 100;
/**
 * How long an interactive transaction may wait for a connection of the pool before it fails.
 * Statements outside one wait in the same queue with no bound; this bounds only a pool that
 * stays exhausted, say by connections a hung Postgres never answers.
 */
const POOL_WAIT_MS = 30_000;
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
  /** Told once of each server refused and each primary found, for a multi-host URL. */
  onNotice?: (message: string) => void;
}

/** The app's only way to Postgres: Prisma Client on the Rust-free `pg` driver adapter. */
export function createPrismaClient(
  databaseUrl: string,
  options: PrismaClientOptions = {},
): PrismaClient {
  const sent = { statements: 0 };
  const servers = primaryOnlyServers(databaseUrl);
  let Client = pg.Client;
  if (servers) {
    const locator = primaryLocatorFor(servers);
    locator.onNotice ??= options.onNotice;
    Client = primaryClientClass(locator);
  }
  const pool = new pg.Pool({
    connectionString: servers ? firstServerUrl(servers) : databaseUrl,
    max: options.poolSize ?? 10,
    Client: countingClient(sent, outcomeCheckingClient(Client)),
  });
  const prepared = options.preparedStatements ?? false;
  const adapter = new PrismaPg(pool, {
    disposeExternalPool: true,
    ...(prepared ? { statementNameGenerator: prismaStatementNames() } : {}),
  });
  // An interactive transaction waits for a pooled connection as long as any other statement:
  // Prisma's own 2 s refused a burst of them ("Unable to start a transaction in the given time")
  // while the statements queued beside them were served.
  const prisma = new PrismaClient({ adapter, transactionOptions: { maxWait: POOL_WAIT_MS } });
  pools.set(prisma, { pool, sent, prepared });
  return prisma;
}

/** For Prisma's adapter, which takes '' for a statement to run unnamed. */
function prismaStatementNames(): (query: { sql: string }) => string {
  const nameOf = boundedStatementNames();
  return ({ sql }) => nameOf(sql)?.name ?? '';
}

/**
 * A pg client that counts the statements it sends: each is one round trip to Postgres, the
 * figure the lock path is tuned by (see statementsSent).
 */
function countingClient(sent: { statements: number }, Base: typeof pg.Client): typeof pg.Client {
  return class CountingClient extends Base {
    // biome-ignore lint/suspicious/noExplicitAny: pg's query has a dozen overloads; this passes every one on.
    override query(...args: any[]): any {
      sent.statements++;
      // biome-ignore lint/suspicious/noExplicitAny: as above.
      return (super.query as (...all: any[]) => any)(...args);
    }
  };
}

export interface ConnectionPoolUsage {
  /** Connections checked out by a query or transaction. */
  inUse: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
}

/** What createPrismaClient knows of a client's pool, which Prisma does not expose. */
export interface ClientPool {
  pool: pg.Pool;
  /** What it sent, for metrics. */
  sent: { statements: number };
  /** Whether statements may be kept prepared on its connections (see preparedStatements). */
  prepared: boolean;
}

const pools = new WeakMap<PrismaClient, ClientPool>();

/** The pool behind `db` when it is a client made by createPrismaClient (not a transaction). */
export function poolOf(db: Queryable): ClientPool | undefined {
  return pools.get(db as PrismaClient);
}

/**
 * Runs `work` on a connection of its own from the pool behind a client made by
 * createPrismaClient, for what Prisma Client cannot send (COPY). A connection that `work`
 * failed on is closed rather than given back, as it may be mid-statement.
 */
export async function withPoolConnection<T>(
  prisma: Queryable,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const pool = pools.get(prisma as PrismaClient)?.pool;
  if (!pool) throw new Error('withPoolConnection needs a client made by createPrismaClient.');
  const client = await pool.connect();
  try {
    const result = await work(client);
    client.release();
    return result;
  } catch (error) {
    client.release(true);
    throw error;
  }
}

/** How busy the connection pool behind a client made by createPrismaClient is. */
export function connectionPoolUsage(prisma: PrismaClient): ConnectionPoolUsage | undefined {
  const pool = pools.get(prisma)?.pool;
  return (
    pool && {
      inUse: pool.totalCount - pool.idleCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }
  );
}

/**
 * How many statements a client made by createPrismaClient has sent to Postgres (queries, and
 * a transaction's BEGIN and COMMIT), since it was made: one round trip each.
 */
export function statementsSent(prisma: PrismaClient): number | undefined {
  return pools.get(prisma)?.sent.statements;
}

/**
 * Whether `db` is a client of its own pool (made by createPrismaClient), not a transaction:
 * work on it may share a statement with other callers' work.
 */
export function isPoolClient(db: Queryable): db is PrismaClient {
  return pools.has(db as PrismaClient);
}

/** A text kept prepared: its name, and the text as first asked about. */
export interface NamedStatement {
  name: string;
  /** Equal to the text asked about; the same string each time, for `pg` to compare at once. */
  sql: string;
}

/**
 * Names for the first MAX_PREPARED_STATEMENTS texts it is asked about (`tl_` and the text's
 * hash, so the same on every path that prepares it); undefined (run unnamed, not kept) for any
 * other. Each path keeps its own: the lock path's are never taken up by other texts.
 */
export function boundedStatementNames(): (sql: string) => NamedStatement | undefined {
  // Found by length, then compared with the few texts of that length: a Map keyed by the text
  // hashed every text asked about, kilobytes built anew for each statement of the lock path,
  // and that hashing was the dearest part of tablelock's own code in its CPU profile.
  const byLength = new Map<number, NamedStatement[]>();
  let named = 0;
  return (sql) => {
    const sameLength = byLength.get(sql.length);
    const known = sameLength?.find((statement) => statement.sql === sql);
    if (known || named >= MAX_PREPARED_STATEMENTS) return known;
    const statement = { name: `tl_${createHash('sha1').update(sql).digest('base64url')}`, sql };
    if (sameLength) sameLength.push(statement);
    else byLength.set(sql.length, [statement]);
    named++;
    return statement;
  };
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
