import { createHash } from 'node:crypto';
import type { Prisma, TableStatus } from '@tablelock/db';
import {
  compareAndSetQuery,
  type LockRow,
  type LockRowChange,
  lockScopeQuery,
} from '@tablelock/lock/sql';
import type pg from 'pg';
import { benchPair } from '../benchDatabase';
import type { Operation } from '../runClosedLoop';

/**
 * The floor: UpdateTableStatusWithLock's own two statements (read the rows, then one
 * conditional compare-and-set write that also records the audit event), sent with `pg` straight
 * from the client that knows the table's only FK target, with the status checks written inline.
 * What it does not pay for is what the GraphQL path adds: HTTP, authentication, GraphQL and
 * the general state machine. One operation is an acquire and a release of client `i`'s own
 * table pair.
 */
export function rawSqlLockCycle(pool: pg.Pool): Operation {
  return async (client) => {
    const { child, parent } = benchPair(client);
    const editor = `key:bench-${client}`;
    const acquired = await transition(pool, child, [parent], 'acquire', editor, (rows) => {
      const childRow = rows.get(child);
      const parentRow = rows.get(parent);
      return childRow?.status === 'normal' && parentRow && parentRow.status !== 'editing'
        ? [
            { row: { ...childRow, status: 'editing', editor }, grant: true, leaseSeconds: 60 },
            { row: { ...parentRow, status: 'locked', lockedBy: [child] } },
          ]
        : undefined;
    });
    if (!acquired) return false;
    return transition(pool, child, [parent], 'release', editor, (rows) => {
      const childRow = rows.get(child);
      const parentRow = rows.get(parent);
      return childRow?.status === 'editing' && childRow.editor === editor && parentRow
        ? [
            { row: { ...childRow, status: 'normal', editor: null } },
            { row: { ...parentRow, status: 'normal', lockedBy: [] } },
          ]
        : undefined;
    });
  };
}

type RawRow = {
  table_name: string;
  status: TableStatus;
  editor: string | null;
  locked_by: string[];
  references: string[];
  version: number;
  fencing_token: string | null;
};

/**
 * The floor's two statements for one lock change of `tableName`: the scope read (the table,
 * `fkTables` and whatever else the lock path reads with them), then, if `decide` wants changes
 * of the rows read, the one conditional write, expecting every row read at its version.
 * Answers whether the write was granted. The bare GraphQL server's resolver runs it too.
 */
export async function transition(
  pool: pg.Pool,
  tableName: string,
  fkTables: string[],
  action: 'acquire' | 'release',
  editor: string,
  decide: (rows: ReadonlyMap<string, LockRow>) => LockRowChange[] | undefined,
): Promise<boolean> {
  const { rows } = await pool.query<RawRow>(prepared(lockScopeQuery(tableName, fkTables)));
  const read = new Map(
    rows.map((row): [string, LockRow] => [
      row.table_name,
      {
        ...row,
        tableName: row.table_name,
        lockedBy: row.locked_by,
        fencingToken: row.fencing_token,
        leaseExpired: false,
      },
    ]),
  );
  const changes = decide(read);
  if (!changes) return false;
  const event = { action, tableName, actor: editor, editor };
  const result = await pool.query<{ granted: boolean }>(
    prepared(compareAndSetQuery([...read.values()], changes, event)),
  );
  return result.rows[0]?.granted === true;
}

// Prepared once per connection, as the API does (queryPrepared).
function prepared(query: Prisma.Sql): pg.QueryConfig {
  const name = `floor_${createHash('sha1').update(query.text).digest('base64url')}`;
  return { name, text: query.text, values: query.values };
}
