import type { TransactionClient } from '@tablelock/db';
import { MasterDataError } from '../masterDataError';
import type { RowValues } from '../readRows';

/** A stored row's key with every value as text: keys compare alike however they were written. */
const keyOf = (alias: string) => `(SELECT jsonb_object_agg(name, value #>> '{}')
    FROM jsonb_each(${alias}.row->'key') AS entry(name, value))`;

/**
 * BAD_USER_INPUT, and so nothing submitted, when request `requestId` of edition `editionId`
 * changes a row of `tableName` that another of its waiting requests changes too: an edition
 * applies each row once, or its requests' order would decide the outcome. Compared where the
 * rows are stored, in one statement, however many rows the requests have.
 */
export async function assertRowsOnceInEdition(
  tx: TransactionClient,
  editionId: string,
  tableName: string,
  requestId: bigint,
): Promise<void> {
  const [shared] = await tx.$queryRawUnsafe<{ id: bigint; key: RowValues }[]>(
    `WITH mine AS (
       SELECT DISTINCT ${keyOf('mine_row')} AS key
       FROM tablelock.change_request AS me, jsonb_array_elements(me.rows) AS mine_row(row)
       WHERE me.id = $1 AND jsonb_typeof(mine_row.row->'key') = 'object'
         AND mine_row.row->'key' <> '{}'::jsonb)
     SELECT other.id, mine.key
     FROM tablelock.change_request AS other,
          jsonb_array_elements(other.rows) AS other_row(row), mine
     WHERE other.edition_id = $2::bigint AND other.table_name = $3 AND other.id <> $1
       AND other.state IN ('pending', 'scheduled')
       AND jsonb_typeof(other_row.row->'key') = 'object'
       AND ${keyOf('other_row')} = mine.key
     ORDER BY other.id LIMIT 1`,
    requestId,
    editionId,
    tableName,
  );
  if (!shared) return;
  const key = JSON.stringify(
    Object.fromEntries(Object.entries(shared.key).sort(([a], [b]) => a.localeCompare(b))),
  );
  throw new MasterDataError(
    'BAD_USER_INPUT',
    `Change request ${shared.id} of edition ${editionId} changes the row ${key} of ${tableName} too: an edition changes each row once; nothing was submitted.`,
    { changeRequestId: shared.id.toString(), key },
  );
}
