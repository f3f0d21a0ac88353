import pg from 'pg';

/**
 * The SQLSTATE of a Postgres error as Prisma (through its pg adapter) or `pg` itself (see
 * queryPrepared) reports it, e.g. `55P03` (lock_not_available); undefined for anything else.
 * Prisma's wrapping stays in this package.
 */
export function postgresErrorCode(error: unknown): string | undefined {
  if (error instanceof pg.DatabaseError) return error.code;
  return (error as { meta?: { driverAdapterError?: { cause?: { originalCode?: string } } } })?.meta
    ?.driverAdapterError?.cause?.originalCode;
}
