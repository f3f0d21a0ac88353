import type { Queryable } from '@tablelock/db';
import { LOCK_EVENT } from '../sql/registryTables';

/** A lock event as an archive keeps it: every column, its details as stored. A type, not an
 * interface: the archive reads its fields by column name. */
export type ArchivedLockEvent = {
  id: string;
  at: Date;
  action: string;
  table: string;
  actor: string;
  editor: string | null;
  token: string | null;
  reason: string | null;
  rowsChanged: number | null;
  details: unknown;
};

/**
 * The next `limit` lock events after id `after` (oldest first) within [from, to): an archive
 * reads the history batch by batch on the primary key, however long it is.
 */
export function readLockEventArchive(
  db: Queryable,
  range: { after: bigint; from: Date; to: Date; limit: number },
): Promise<ArchivedLockEvent[]> {
  return db.$queryRaw<ArchivedLockEvent[]>`
    SELECT id::text AS id, at, action::text AS action, table_name AS "table", actor, editor,
           token::text AS token, reason, rows_changed AS "rowsChanged", details
    FROM ${LOCK_EVENT}
    WHERE id > ${range.after} AND at >= ${range.from} AND at < ${range.to}
    -- The column, not the text alias of the same name: ids in number order.
    ORDER BY lock_event.id LIMIT ${range.limit}`;
}
