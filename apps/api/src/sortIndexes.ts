import { MasterDataError, planSortIndex } from '@tablelock/master-data';
import pg from 'pg';
import type { Logger } from 'pino';

/** Indexes that keep every page of a sorted grid quick, whichever column users sort by. */
export interface SortIndexes {
  /**
   * Sorting `table` by `column` should be quick on any page: builds the index it needs, in the
   * background, once per process. Resolves when that is settled; never rejects.
   */
  request(table: string, column: string): Promise<void>;
}

export interface SortIndexOptions {
  /** `SORT_INDEXES=auto`: off, nothing is ever built. */
  enabled: boolean;
  prisma: Parameters<typeof planSortIndex>[0];
  masterSchema: string;
  /** The database without a pooler in between: a build outlasts any pooled transaction. */
  directDatabaseUrl: string;
  logger: Logger;
}

/**
 * The master tables are the business's, not tablelock's: it adds only indexes named
 * `tlsort_…`, built CONCURRENTLY (writers are not blocked), only on tables of 10,000 rows or
 * more and only for a column no btree index starts with. A database role that may not create
 * them is logged once per column, and sorts by it work as before, just slower.
 */
export function createSortIndexes(options: SortIndexOptions): SortIndexes {
  const { enabled, prisma, masterSchema, directDatabaseUrl, logger } = options;
  const requested = new Map<string, Promise<void>>();

  async function ensure(key: string, table: string, column: string) {
    try {
      const plan = await planSortIndex(prisma, masterSchema, table, column);
      if (plan.action === 'none') return;
      logger.info({ table, column, index: plan.index }, 'building a sort index');
      const client = new pg.Client({ connectionString: directDatabaseUrl });
      // A dropped connection also fails the statement, which reports it.
      client.on('error', () => {});
      await client.connect();
      try {
        for (const statement of plan.statements) await client.query(statement);
      } finally {
        await client.end();
      }
      logger.info({ table, column, index: plan.index }, 'sort index built');
    } catch (error) {
      // Names that are not a master table's column: the page request says so to its caller,
      // and they are not remembered (callers choose them).
      if (error instanceof MasterDataError) {
        requested.delete(key);
        return;
      }
      logger.warn(
        { err: error, table, column },
        'could not build a sort index; sorting by this column stays slower on large tables',
      );
    }
  }

  return {
    request(table, column) {
      if (!enabled) return Promise.resolve();
      const key = JSON.stringify([table, column]);
      let settled = requested.get(key);
      if (!settled) {
        settled = ensure(key, table, column);
        requested.set(key, settled);
      }
      return settled;
    },
  };
}
