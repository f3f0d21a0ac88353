import { Prisma, type PrismaClient } from '@tablelock/db';
import { z } from 'zod';
import { MasterDataError } from './masterDataError';
import { refuseValuesThatDoNotFit } from './postgresError';
import type { RowValues } from './readRows';
import { filterConditions, type RowView, rowViewShape, whereAll } from './rowView';
import { columnsAsJson } from './sqlFragments';
import { type MasterTable, readMasterTable } from './tableColumns';
import { orderBy, viewOrder } from './viewOrder';

/** Rows per FETCH: a few hundred kilobytes at most, however large the table. */
const BATCH_ROWS = 1000;

/** How long one export may hold its transaction (and so its snapshot) open. */
const EXPORT_TIMEOUT_MS = 10 * 60_000;

/** Every row of a view, checked and ready to be read. */
export interface RowExport {
  table: MasterTable;
  /**
   * Calls `onBatch` with the view's rows in its order, a batch at a time, each after the one
   * before has been handled (a slow reader slows the reading, memory stays flat). All batches
   * come from one snapshot: rows saved meanwhile are in it wholly or not at all.
   */
  forEachBatch(onBatch: (rows: RowValues[]) => Promise<void>): Promise<void>;
}

/**
 * Checks the table and view (TABLE_NOT_FOUND, BAD_USER_INPUT) before anything is read, so a
 * caller can refuse the request while it can still answer with an error.
 */
export async function openRowExport(
  prisma: PrismaClient,
  schema: string,
  tableName: string,
  view: RowView,
): Promise<RowExport> {
  const parsed = z.object(rowViewShape).safeParse(view);
  if (!parsed.success) throw new MasterDataError('BAD_USER_INPUT', z.prettifyError(parsed.error));
  const table = await readMasterTable(prisma, schema, tableName);
  const rows = Prisma.sql`
    SELECT ${columnsAsJson(table.columns)} AS values
    FROM ${Prisma.raw(table.qualifiedName)}
    ${whereAll(filterConditions(table, view.filter))} ${orderBy(viewOrder(table, view.sort))}`;
  return {
    table,
    forEachBatch: (onBatch) =>
      // One cursor in one read-only transaction: one sort for the whole export, one snapshot.
      prisma
        .$transaction(
          async (tx) => {
            await tx.$executeRaw`SET TRANSACTION READ ONLY`;
            await tx.$executeRaw`DECLARE row_export NO SCROLL CURSOR FOR ${rows}`;
            for (;;) {
              const batch = await tx.$queryRaw<{ values: RowValues }[]>`
                FETCH ${Prisma.raw(String(BATCH_ROWS))} FROM row_export`;
              if (batch.length > 0) await onBatch(batch.map((row) => row.values));
              if (batch.length < BATCH_ROWS) return;
            }
          },
          { timeout: EXPORT_TIMEOUT_MS },
        )
        .catch(refuseValuesThatDoNotFit),
  };
}
