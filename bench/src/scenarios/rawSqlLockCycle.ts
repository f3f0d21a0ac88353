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
    const acquired = await transition(
      pool,
      child,
      parent,
      'acquire',
      editor,
      (childRow, parentRow) =>
        childRow.status === 'normal' && parentRow.status !== 'editing'
          ? [
              { row: { ...childRow, status: 'editing', editor }, grant: true, leaseSeconds: 60 },
              { row: { ...parentRow, status: 'locked', lockedBy: [child] } },
            ]
          : undefined,
    );
    if (!acquired) return false;
    return transition(pool, child, parent, 'release', editor, (childRow, parentRow) =>
      childRow.status === 'editing' && childRow.editor === editor
        ? [
            { row: { ...childRow, status: 'normal', editor: null } },
            { row: { ...parentRow, status: 'normal', lockedBy: [] } },
          ]
        : undefined,
    );
  };
}

type RawRow = {
  table_name: string;
  status: TableStatus;
  editor: string | null;
  version: number;
  fencing_token: string | null;
};

async function transition(
  pool: pg.Pool,
  child: string,
  parent: string,
  action: 'acquire' | 'release',
  editor: string,
  decide: (childRow: LockRow, parentRow: LockRow) => LockRowChange[] | undefined,
): Promise<boolean> {
  const { rows } = await pool.query<RawRow>(prepared(lockScopeQuery(child, [parent])));
  const row = (name: string): LockRow => {
    const found = rows.find((candidate) => candidate.table_name === name);
    if (!found) throw new Error(`no registry row for ${name}`);
    return {
      ...found,
      tableName: name,
      fencingToken: found.fencing_token,
      leaseExpired: false,
      lockedBy: [],
      references: [],
    };
  };
  const expected = [row(child), row(parent)];
  const changes = decide(expected[0] as LockRow, expected[1] as LockRow);
  if (!changes) return false;
  const event = { action, tableName: child, actor: editor, editor };
  const result = await pool.query<{ granted: boolean }>(
    prepared(compareAndSetQuery(expected, changes, event)),
  );
  return result.rows[0]?.granted === true;
}

// Prepared once per connection, as the API does (queryPrepared).
function prepared(query: Prisma.Sql): pg.QueryConfig {
  const name = `floor_${createHash('sha1').update(query.text).digest('base64url')}`;
  return { name, text: query.text, values: query.values };
}
