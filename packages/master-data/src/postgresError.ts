import { MasterDataError } from './masterDataError';

/** What Postgres said about a failed statement, dug out of Prisma's driver-adapter error. */
export interface PostgresError {
  /** SQLSTATE, e.g. 23505. */
  code: string;
  message: string;
  /** The violated constraint's name, when Postgres names one. */
  constraint?: string;
}

/** The Postgres error behind a Prisma raw-query error, or undefined if it is something else. */
export function postgresErrorOf(error: unknown): PostgresError | undefined {
  const cause = (error as { meta?: { driverAdapterError?: { cause?: Record<string, unknown> } } })
    ?.meta?.driverAdapterError?.cause;
  if (!cause || typeof cause.originalCode !== 'string') return undefined;
  const constraint = (cause.constraint as { index?: unknown } | undefined)?.index;
  return {
    code: cause.originalCode,
    message: typeof cause.originalMessage === 'string' ? cause.originalMessage : 'database error',
    ...(typeof constraint === 'string' ? { constraint } : {}),
  };
}

/** Class 22: the value does not fit the column's type (bad number, date, too long...). */
export const isDataException = (error: PostgresError) => error.code.startsWith('22');

/** A filter or cursor value that does not fit its column is the caller's mistake; else `error` again. */
export function refuseValuesThatDoNotFit(error: unknown): never {
  const postgres = postgresErrorOf(error);
  if (postgres && isDataException(postgres)) {
    throw new MasterDataError(
      'BAD_USER_INPUT',
      `A filter or cursor value does not fit its column: ${postgres.message}`,
    );
  }
  throw error;
}
