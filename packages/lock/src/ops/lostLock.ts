import { postgresErrorCode, type Queryable, type TransactionClient } from '@tablelock/db';
import { LockError } from '../core/lockError';
import { IDLE_REASON, idleExpired } from '../sql/idleLimitSql';
import { LOCK_EVENT, TABLE_LOCK } from '../sql/registryTables';
import { holdsRowScope } from '../sql/rowScopeSql';

/**
 * Why an acquisition (`token`) of `tableName` no longer holds the lock: expired, released,
 * force-released or taken over, and by whom — from the lock itself and the audit history.
 */
export async function describeLostLock(
  db: Queryable,
  tableName: string,
  token: string,
): Promise<string> {
  const [ended] = await db.$queryRaw<
    {
      action: string;
      actor: string;
      reason: string | null;
      details: { previousEditor?: string } | null;
      editor: string | null;
    }[]
  >`
    SELECT action::text AS action, actor, reason, details, editor FROM ${LOCK_EVENT}
    WHERE table_name = ${tableName} AND token IS NOT NULL
      AND (token = ${token}::bigint AND action IN ('release', 'expire', 'force_release')
           OR token = ${token}::bigint AND action = 'take_over' AND details ? 'rows'
           OR token > ${token}::bigint AND action = 'take_over' AND NOT coalesce(details ? 'rows', false))
    ORDER BY id LIMIT 1`;
  const because = ended?.reason ? ` (reason: ${ended.reason})` : '';
  switch (ended?.action) {
    case 'expire':
      return ended.reason === IDLE_REASON
        ? idleEnd(tableName)
        : `your lock on ${tableName} expired: its lease ran out without renewal`;
    case 'force_release':
      return `${ended.actor} force-released your lock on ${tableName}${because}`;
    case 'take_over':
      return `${ended.actor} took over ${tableName}${because}`;
    case 'release':
      return `your lock on ${tableName} was released`;
  }
  const [current] = await db.$queryRaw<{ expired: boolean; idle: boolean; mine: boolean }[]>`
    SELECT coalesce(lease_expires_at <= now(), false) AS expired, ${idleExpired('table_lock')} AS idle,
           fencing_token = ${token}::bigint AS mine
    FROM ${TABLE_LOCK} AS table_lock WHERE table_name = ${tableName}`;
  if (current?.mine && current.expired) {
    return `your lock on ${tableName} expired: its lease ran out without renewal`;
  }
  if (current?.mine && current.idle) return idleEnd(tableName);
  return `lock ${token} is not a current lock on ${tableName}`;
}

const idleEnd = (tableName: string) =>
  `your lock on ${tableName} was released: you were inactive for longer than its idle limit`;

/** What the writer holds: a row scope's values of the row-lock column, or (null) the whole table. */
export interface HeldLock {
  rows: string[] | null;
}

/**
 * The fence in front of every master-data write: inside the writing transaction, `tableName`
 * must be edited by `editor` under acquisition `token` — the whole table, or one of its row
 * scopes — with its lease not run out and (whole tables) its holder not idle past the limit
 * (database clock); else LOCK_LOST, saying why. The registry row (or the scope's row) stays
 * share-locked until the writing transaction ends, so a release, expiry or take-over either
 * committed before (and the write fails here) or waits until the write has committed: no write
 * can follow a release. Which rows a scope may write, the write guard judges (TL007).
 */
export async function assertHoldsLock(
  tx: TransactionClient,
  lock: { tableName: string; editor: string; token: string },
): Promise<HeldLock> {
  const [row] = await tx.$queryRaw<{ holds: boolean }[]>`
    SELECT status = 'editing' AND editor = ${lock.editor} AND fencing_token = ${lock.token}::bigint
           AND coalesce(lease_expires_at > now(), true) AND NOT ${idleExpired('table_lock')} AS holds
    FROM ${TABLE_LOCK} AS table_lock WHERE table_name = ${lock.tableName} FOR SHARE`;
  if (!row) throw new LockError('TABLE_NOT_FOUND', `No master table is named ${lock.tableName}.`);
  if (row.holds) return { rows: null };
  const scope = await holdsRowScope(tx, lock);
  if (scope) return { rows: scope };
  const why = await describeLostLock(tx, lock.tableName, lock.token);
  throw new LockError('LOCK_LOST', `You no longer hold the lock: ${why}. Nothing was saved.`);
}

/** A LOCK_LOST from the state machine, with the reason from the lock's history. */
export async function explainLostLock(
  db: Queryable,
  error: unknown,
  tableName: string,
  token: string,
): Promise<unknown> {
  if (!(error instanceof LockError) || error.code !== 'LOCK_LOST') return error;
  return new LockError(
    'LOCK_LOST',
    `You no longer hold the lock: ${await describeLostLock(db, tableName, token)}.`,
  );
}

// The write guard's SQLSTATEs for a lock that ended: use_lock's (TL001), and a later write's or
// the commit's (TL006).
const LOCK_ENDED_IN_DATABASE = new Set(['TL001', 'TL006']);

/**
 * A write the database refused because its lock ended meanwhile (the lease ran out between the
 * fence and the write) as LOCK_LOST, saying why; any other error as it is.
 */
export async function explainLockEndedInDatabase(
  db: Queryable,
  error: unknown,
  tableName: string,
  token: string,
): Promise<unknown> {
  const code = postgresErrorCode(error);
  if (code === undefined || !LOCK_ENDED_IN_DATABASE.has(code)) return error;
  const why = await describeLostLock(db, tableName, token);
  return new LockError('LOCK_LOST', `You no longer hold the lock: ${why}. Nothing was saved.`);
}
