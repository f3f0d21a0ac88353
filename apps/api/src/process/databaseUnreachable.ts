import { GraphQLError } from 'graphql';

/** How long a client should wait before trying again while the database cannot be reached. */
export const RETRY_AFTER_SECONDS = 5;

// Postgres SQLSTATEs of a server going away or not taking connections: admin/crash shutdown,
// cannot connect now, too many connections, and the connection-exception class (08xxx).
const UNAVAILABLE_SQLSTATE = /^(57P0[123]|53300|08...)$/;
const UNREACHABLE_KINDS = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
]);
const UNREACHABLE_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
]);
// Prisma's own codes: cannot reach the server, timed out reaching it, server closed the connection.
const UNREACHABLE_PRISMA_CODES = new Set(['P1001', 'P1002', 'P1017']);

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: { cause?: { kind?: unknown; originalCode?: unknown } } };
}

/**
 * Whether `error` (from Prisma, its pg adapter or pg itself, however wrapped) means the
 * database cannot be reached now, as opposed to a query that failed on a database that is up.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  for (let current = error as ErrorLike | undefined, depth = 0; current && depth < 5; depth++) {
    const adapter = current.meta?.driverAdapterError?.cause;
    if (UNREACHABLE_KINDS.has(String(adapter?.kind))) return true;
    if (UNAVAILABLE_SQLSTATE.test(String(adapter?.originalCode))) return true;
    const code = String(current.code);
    if (UNREACHABLE_NODE_CODES.has(code) || UNREACHABLE_PRISMA_CODES.has(code)) return true;
    if (UNAVAILABLE_SQLSTATE.test(code)) return true;
    // pg's own words when a connection dies under it (no code).
    if (
      /^Connection terminated|connection error and is not queryable/.test(String(current.message))
    ) {
      return true;
    }
    current = current.cause as ErrorLike | undefined;
  }
  return false;
}

/** What a caller gets while the database cannot be reached: HTTP 503, try again shortly. */
export function serviceUnavailableError(
  message = 'The database cannot be reached just now; try again shortly.',
): GraphQLError {
  return new GraphQLError(message, {
    extensions: {
      code: 'SERVICE_UNAVAILABLE',
      retryAfterSeconds: RETRY_AFTER_SECONDS,
      http: { status: 503, headers: new Map([['retry-after', String(RETRY_AFTER_SECONDS)]]) },
    },
  });
}
