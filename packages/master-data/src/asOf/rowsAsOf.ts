import type { PrismaClient } from '@tablelock/db';
import { MasterDataError } from '../masterDataError';
import { type RowPage, type RowQuery, readRowsOf } from '../readRows';
import { readMasterTable } from '../tableColumns';
import { historyOverlay } from './historyOverlay';
import { scheduledOverlay } from './scheduledOverlay';

/** A time this close to now (either way) reads today's rows: a clock a little off is no time travel. */
export const AS_OF_NOW_SECONDS = 5;

export interface AsOfQuery extends RowQuery {
  asOf: Date;
  /** HISTORY_RETENTION_DAYS: how far back the row history reaches; null: kept for ever. */
  historyRetentionDays: number | null;
}

/**
 * A page of the table at `asOf`, sorted, filtered and paged as `readRows` does (cursors
 * included). Ahead of now: today's rows with the scheduled requests due by then applied, each
 * changed cell listed in `scheduledChanges`; rows they delete are left out. Behind now: the
 * rows as they were, from the row history; before the history's retention, BAD_USER_INPUT.
 * Within AS_OF_NOW_SECONDS of now (the database's clock): today's rows. Tables without a
 * primary key have no row identity to lay changes on: BAD_USER_INPUT.
 */
export async function readRowsAsOf(
  prisma: PrismaClient,
  schema: string,
  tableName: string,
  query: AsOfQuery,
): Promise<RowPage> {
  const { asOf, historyRetentionDays, ...rowQuery } = query;
  if (Number.isNaN(asOf.getTime()))
    throw new MasterDataError('BAD_USER_INPUT', 'asOf is not a time.');
  const table = await readMasterTable(prisma, schema, tableName);
  const [clock] = await prisma.$queryRaw<{ now: Date }[]>`SELECT now() AS now`;
  const now = clock?.now ?? new Date();
  const ahead = asOf.getTime() - now.getTime();
  if (Math.abs(ahead) <= AS_OF_NOW_SECONDS * 1000) return readRowsOf(prisma, table, rowQuery, null);
  if (table.primaryKey.length === 0) {
    throw new MasterDataError(
      'BAD_USER_INPUT',
      `${table.name} has no primary key, so its rows cannot be shown at another time.`,
    );
  }
  if (ahead > 0) return readRowsOf(prisma, table, rowQuery, scheduledOverlay(table, asOf));
  if (historyRetentionDays !== null) {
    const earliest = new Date(now.getTime() - historyRetentionDays * 24 * 60 * 60 * 1000);
    if (asOf.getTime() < earliest.getTime()) {
      throw new MasterDataError(
        'BAD_USER_INPUT',
        `The row history is kept for ${historyRetentionDays} days, so rows can be shown as of ${earliest.toISOString()} at the earliest; asOf ${asOf.toISOString()} is before that.`,
        { retentionDays: historyRetentionDays, earliest: earliest.toISOString() },
      );
    }
  }
  return readRowsOf(prisma, table, rowQuery, historyOverlay(table, asOf));
}
