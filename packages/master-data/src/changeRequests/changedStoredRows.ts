import { Prisma, type TransactionClient } from '@tablelock/db';
import type { MasterTable } from '../tableColumns';
import type { ChangeRequestRow } from './changeRequestRecord';
import { storedKeyMatch, storedRows } from './writeStoredRows';

/** A row of a request that changed or was deleted since it was made: its place and itself. */
export interface ChangedStoredRow {
  index: number;
  row: ChangeRequestRow;
}

/**
 * The updates and deletes of a stored request whose row is no longer at the version they were
 * made on (changed or deleted since), found in one statement as the import's apply checks a dry
 * run, in the request's order.
 */
export async function changedStoredRows(
  tx: TransactionClient,
  table: MasterTable,
  requestId: string,
): Promise<ChangedStoredRow[]> {
  const changed = await tx.$queryRaw<{ index: number; row: ChangeRequestRow }[]>`
    SELECT (stored.n - 1)::int AS index, stored.row
    FROM ${storedRows} LEFT JOIN ${Prisma.raw(table.qualifiedName)} AS t ON ${storedKeyMatch(table)}
    WHERE request.id = ${requestId}::bigint
      AND stored.row->>'action' IN ('update', 'delete')
      AND (t.xmin IS NULL OR NOT t.xmin = coalesce(stored.row->>'version', '0')::xid)
    ORDER BY stored.n`;
  return changed;
}
