import type { Queryable } from '@tablelock/db';

/** A security event as an archive keeps it: every column, its details as stored. A type, not an
 * interface: the archive reads its fields by column name. */
export type ArchivedSecurityEvent = {
  id: string;
  at: Date;
  action: string;
  actor: string | null;
  subject: string;
  ip: string | null;
  details: unknown;
};

/**
 * The next `limit` security events after id `after` (oldest first) within [from, to): an
 * archive reads the history batch by batch on the primary key, however long it is.
 */
export function readSecurityEventArchive(
  db: Queryable,
  range: { after: bigint; from: Date; to: Date; limit: number },
): Promise<ArchivedSecurityEvent[]> {
  return db.$queryRaw<ArchivedSecurityEvent[]>`
    SELECT id::text AS id, at, action::text AS action, actor, subject, ip, details
    FROM tablelock.security_event
    WHERE id > ${range.after} AND at >= ${range.from} AND at < ${range.to}
    -- The column, not the text alias of the same name: ids in number order.
    ORDER BY security_event.id LIMIT ${range.limit}`;
}
