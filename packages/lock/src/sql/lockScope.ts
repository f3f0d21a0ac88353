import { Prisma, type Queryable, queryPrepared } from '@tablelock/db';
import type { Blocker } from '../core/blocker';
import type { LockRow } from '../core/lockRow';
import { disjointScopes, WAITER_COUNTS, WAITER_SERVABLE } from '../line/lockQueue';
import { idleExpired } from './idleLimitSql';
import { LOCK_WAITER, TABLE_LOCK } from './registryTables';
import { TABLE_LOCK_COLUMNS, type TableLockRow, tableLockOf } from './tableLockRow';
import { POLICY_COLUMN, type PolicyColumns, tableRulesOf } from './tableRulesSql';

/** A row of the lock scope: the registry row, and what a lock change reads with it. */
type LockScopeRow = TableLockRow & {
  idle_expired: boolean;
  waiters_ahead: Blocker[] | null;
  policy: PolicyColumns | null;
};

/** Where an acquisition stands in the line: who asks, and their own waiter when they queued. */
export interface PlaceInLine {
  editor: string;
  /** A row scope's values of the table asked for; none: the whole table. */
  rows?: string[];
  /** The caller's waiter: only those before it go first. Else those before the editor's own earliest for the table, if any. */
  waiterId?: string;
}

/**
 * The registry rows a lock change on `tableName` may touch: the table, the FK tables the
 * caller named, the table's discovered FK targets, every table it holds locked, and tables
 * being edited that reference it. A plain read in one statement: one consistent snapshot, no
 * lock taken, none waited for — unless `lockRows`: then it row-locks them in name order (the
 * order every lock change takes rows in, so waiting cannot deadlock), waiting for whoever holds
 * one. For an acquisition (`line`), each row also names who is in line for it first. Each row
 * comes with the table's rules (policy and a freeze in force): a freeze, kept on the row itself,
 * is read again with the row when a row lock was waited for.
 */
export function lockScopeQuery(
  tableName: string,
  namedFkTables: string[],
  lockRows = false,
  line?: PlaceInLine,
): Prisma.Sql {
  return Prisma.sql`
    SELECT ${TABLE_LOCK_COLUMNS}, ${idleExpired('table_lock')} AS idle_expired,
           ${line ? waitersAheadColumn(tableName, line) : Prisma.sql`NULL::jsonb`} AS waiters_ahead,
           ${POLICY_COLUMN} AS policy
    FROM ${TABLE_LOCK}
    WHERE table_name = ANY(${[tableName, ...namedFkTables]}::text[])
       OR table_name IN (SELECT unnest("references") FROM ${TABLE_LOCK} WHERE table_name = ${tableName})
       OR ${tableName} = ANY(locked_by)
       OR (status = 'editing' AND ${tableName} = ANY("references"))
    ${lockRows ? Prisma.sql`ORDER BY table_name FOR UPDATE OF table_lock` : Prisma.empty}`;
}

/**
 * Those in line before the caller who want the row's table: to edit it, or (for the table
 * asked for) to lock it as their FK target; for a row scope, not those waiting for other values
 * of its table alone. Waiters that could never be served (see
 * WAITER_SERVABLE) go first for nobody.
 */
function waitersAheadColumn(tableName: string, line: PlaceInLine): Prisma.Sql {
  const before = Prisma.sql`coalesce(${line.waiterId ?? null}::bigint,
    (SELECT min(o.id) FROM ${LOCK_WAITER} AS o
     WHERE o.editor = ${line.editor} AND ${tableName} = ANY(o.tables)),
    9223372036854775807)`;
  return Prisma.sql`(
    SELECT jsonb_agg(jsonb_build_object(
             'table', CASE WHEN table_lock.table_name = ANY(w.tables) THEN table_lock.table_name ELSE w.tables[1] END,
             'editor', w.editor) ORDER BY w.id)
    FROM ${LOCK_WAITER} AS w
    WHERE w.id < ${before}
      AND (table_lock.table_name = ANY(w.tables)
           OR (table_lock.table_name = ${tableName} AND ${tableName} = ANY(w."references")))
      AND NOT ${disjointScopes(Prisma.sql`ARRAY[${tableName}]::text[]`, Prisma.sql`${line.rows ?? null}::text[]`)}
      AND ${WAITER_COUNTS} AND ${WAITER_SERVABLE})`;
}

export async function readLockScope(
  db: Queryable,
  tableName: string,
  namedFkTables: string[],
  lockRows = false,
  line?: PlaceInLine,
): Promise<Map<string, LockRow>> {
  const rows = await queryPrepared<LockScopeRow>(
    db,
    lockScopeQuery(tableName, namedFkTables, lockRows, line),
  );
  return new Map(
    rows.map((row) => {
      const table = tableLockOf(row);
      return [
        table.tableName,
        {
          tableName: table.tableName,
          status: table.status,
          editor: table.editor,
          lockedBy: table.lockedBy,
          references: table.references,
          version: table.version,
          fencingToken: table.fencingToken,
          leaseExpired: table.leaseExpired,
          idleExpired: row.idle_expired,
          ...(row.waiters_ahead ? { waitersAhead: row.waiters_ahead } : {}),
          rules: tableRulesOf(row.policy, table.frozen),
          idleSeconds: table.idleSeconds,
          ...(table.carriesChangeRequest ? { carriesChangeRequest: true } : {}),
          ...(table.rowScopes.length > 0 ? { rowScopes: table.rowScopes } : {}),
        },
      ];
    }),
  );
}
