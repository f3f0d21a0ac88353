import type { LockAction, Queryable } from '@tablelock/db';
import { inSpan } from '@tablelock/tracing';
import type { LockIntent } from '../core/lockIntent';
import { blockingTables, describeLockRefusal, type LockRefusal } from '../core/lockRefusal';
import type { LockRow } from '../core/lockRow';
import { planLockChange } from '../core/planLockChange';
import { compareAndSetLockRows } from '../sql/compareAndSet';
import { readDeadLocks } from '../sql/deadLocks';
import { recordDeniedAttempt } from '../sql/deniedAttemptLog';
import { IDLE_REASON, LEASE_EXPIRED_REASON } from '../sql/idleLimitSql';
import { readLockScope } from '../sql/lockScope';
import { notAMasterTable } from '../sql/notAMasterTable';
import { readRegistryRowHolders } from '../sql/registryRowHolders';
import { waitingForLocks } from '../sql/waitingForLocks';
import { inAcquisitionTurn } from './acquisitionTurns';

interface LockChangeOutcome {
  /** Not written because another transaction held or changed one of the rows meanwhile. */
  contended: boolean;
  /** The rows involved: as written when `written`, else as they are now. */
  rows: Map<string, LockRow>;
  /** The table's token and lease after the write (editing only). */
  fencingToken: string | null;
  leaseExpiresAt: Date | null;
  /** The table's holder's last activity after the write, and its idle limit when it has one. */
  lastActiveAt: Date | null;
  idleLimitSeconds: number | null;
  /** The table's row as read before the write. */
  previous?: LockRow;
}

export type LockChangeResult =
  | (LockChangeOutcome & { written: true })
  /** `refusal`: why not, naming who is in the way. */
  | (LockChangeOutcome & { written: false; refusal: LockRefusal });

export interface LockChangeOptions {
  /** Who asks: recorded as the event's actor. */
  actor: string;
  reason?: string | null;
  /**
   * Whether a refused acquisition or release goes into the history as `denied` (default): not
   * inside a transaction that the refusal rolls back (several tables, all or nothing).
   */
  recordDenial?: boolean;
  /**
   * Whether an acquisition that found its rows contended waits for them (as releases do) rather
   * than answering `contended`: for one that waits in line anyway.
   */
  waitForRows?: boolean;
  /**
   * Leaves the table's lock as it is when it waits with a change request: answered
   * `changeRequestPending` and not recorded, as nothing was attempted on it. For callers that
   * could end it without its token (the legacy contract's release).
   */
  sparesChangeRequests?: boolean;
}

// Ending or taking over a lock may wait (briefly, in name order, so never in a deadlock) for a
// save in flight or another change of a shared row to commit, rather than fail: the holder
// finishing its editing must not be told "try again" because someone else was busy. Taking a
// lock never waits: a contended acquisition answers at once.
const WAITS: Record<LockIntent['kind'], boolean> = {
  acquire: false,
  release: true,
  renew: false,
  forceRelease: true,
  expire: true,
  takeOver: true,
};

const EVENT_ACTION: Record<LockIntent['kind'], LockAction | null> = {
  acquire: 'acquire',
  release: 'release',
  forceRelease: 'force_release',
  expire: 'expire',
  takeOver: 'take_over',
  // Renewals only move a lease forward; recording each would drown the history.
  renew: null,
};

// A caller's attempt to take or give back a lock that is refused goes into the history (who
// tried, and what stood in the way); the sweeper's and admins' refusals say nothing new.
const RECORDS_DENIAL: Record<LockIntent['kind'], boolean> = {
  acquire: true,
  release: true,
  renew: false,
  forceRelease: false,
  expire: false,
  takeOver: false,
};

/**
 * Carries out one lock intent: reads the rows involved, lets the state machine decide, and
 * writes them with one conditional write that also records the audit event. An acquisition
 * blocked by editing whose lease has run out first expires it (as the sweeper would) and tries
 * again, so a dead lock never stands in the way. An intent that may wait and found its
 * rows contended locks them in name order, waiting for their holders, and decides again on
 * what it finds then; one that may not wait names the sessions that held them. Acquisitions of
 * one table take turns in the process (inAcquisitionTurn). A refused acquisition or release is
 * recorded as `denied`.
 */
export function changeTableLock(
  db: Queryable,
  intent: LockIntent,
  options: LockChangeOptions,
): Promise<LockChangeResult> {
  return inSpan(
    `tablelock.lock.${SPAN_NAME[intent.kind]}`,
    { 'tablelock.table': intent.tableName },
    async (span) => {
      const result = await changeOrRefuse(db, intent, options);
      span.setAttribute('tablelock.outcome', result.written ? 'granted' : 'refused');
      if (!result.written) span.setAttribute('tablelock.refusal', result.refusal.kind);
      return result;
    },
  );
}

/** A transition's span name (`tablelock.lock.<name>`): the history's name for it. */
const SPAN_NAME: Record<LockIntent['kind'], string> = {
  acquire: 'acquire',
  release: 'release',
  renew: 'renew',
  forceRelease: 'force_release',
  expire: 'expire',
  takeOver: 'take_over',
};

async function changeOrRefuse(
  db: Queryable,
  intent: LockIntent,
  options: LockChangeOptions,
): Promise<LockChangeResult> {
  const attempt = () => planAndWrite(db, intent, options, false);
  let result = await (intent.kind === 'acquire'
    ? inAcquisitionTurn(db, intent.tableName, attempt)
    : attempt());
  if (result.contended && (WAITS[intent.kind] || options.waitForRows)) {
    result = await waitingForLocks(db, [...result.rows.keys()], (tx) =>
      planAndWrite(tx, intent, options, true),
    );
  } else if (result.contended && !result.written) {
    result = { ...result, refusal: await contendedBy(db, result.rows) };
  }
  if (
    !result.written &&
    RECORDS_DENIAL[intent.kind] &&
    options.recordDenial !== false &&
    result.refusal.kind !== 'changeRequestPending'
  ) {
    await recordDenial(db, intent, options.actor, result.refusal);
  }
  return result;
}

/**
 * Records a refused acquisition or release in the history (not announced: nothing changed),
 * sharing one statement with other denials recorded at the same time (see deniedAttemptLog).
 */
export function recordDenial(
  db: Queryable,
  intent: LockIntent,
  actor: string,
  refusal: LockRefusal,
): Promise<void> {
  return recordDeniedAttempt(db, {
    action: 'denied',
    tableName: intent.tableName,
    actor,
    editor: 'editor' in intent ? intent.editor : null,
    reason: describeLockRefusal(intent.tableName, refusal),
  });
}

/**
 * A contended refusal naming the sessions that held the rows, when they still do: the
 * conditional write skips held rows without learning whose they were.
 */
async function contendedBy(
  db: Queryable,
  rows: ReadonlyMap<string, LockRow>,
): Promise<LockRefusal> {
  const holders = await readRegistryRowHolders(db, [...rows.keys()]);
  return holders.length > 0 ? { kind: 'contended', holders } : { kind: 'contended' };
}

/** An outcome that wrote nothing: why not, and the rows as they are. */
function notWritten(
  rows: Map<string, LockRow>,
  refusal: LockRefusal,
): Extract<LockChangeResult, { written: false }> {
  return {
    written: false,
    contended: false,
    rows,
    refusal,
    fencingToken: null,
    leaseExpiresAt: null,
    lastActiveAt: null,
    idleLimitSeconds: null,
  };
}

async function planAndWrite(
  db: Queryable,
  intent: LockIntent,
  options: LockChangeOptions,
  lockRows: boolean,
): Promise<LockChangeResult> {
  for (;;) {
    const rows = await readLockScope(
      db,
      intent.tableName,
      'namedFkTables' in intent ? intent.namedFkTables : [],
      lockRows,
      intent.kind === 'acquire'
        ? { editor: intent.editor, ...(intent.waiterId ? { waiterId: intent.waiterId } : {}) }
        : undefined,
    );
    if (!rows.has(intent.tableName)) throw await notAMasterTable(db, intent.tableName);
    if (options.sparesChangeRequests && rows.get(intent.tableName)?.carriesChangeRequest) {
      return notWritten(rows, { kind: 'changeRequestPending' });
    }
    const plan = planLockChange(intent, rows);
    if (!plan.granted) {
      // Each round clears a dead layer (the table's holders, then the tables it references) and
      // decides again; it ends when nothing dead stands in the way.
      const dead = possiblyDead(blockingTables(plan.refusal), rows);
      if ((await expireDeadLocks(db, dead)).length > 0) continue;
      return notWritten(rows, plan.refusal);
    }
    const main = rows.get(intent.tableName);
    const action = EVENT_ACTION[intent.kind];
    const event = action && {
      action,
      tableName: intent.tableName,
      actor: options.actor,
      editor: 'editor' in intent ? intent.editor : (main?.editor ?? null),
      reason: options.reason ?? null,
      details: intent.kind === 'takeOver' ? { previousEditor: main?.editor ?? null } : null,
    };
    const previous = main;
    const written = await compareAndSetLockRows(db, [...rows.values()], plan.changes, event);
    if (written.written) {
      for (const { row } of plan.changes) {
        const isMain = row.tableName === intent.tableName;
        rows.set(row.tableName, isMain ? { ...row, fencingToken: written.fencingToken } : row);
      }
      return {
        written: true,
        contended: false,
        rows,
        fencingToken: written.fencingToken,
        leaseExpiresAt: written.leaseExpiresAt,
        lastActiveAt: written.lastActiveAt,
        idleLimitSeconds: written.idleLimitSeconds,
        ...(previous ? { previous } : {}),
      };
    }
    for (const [name, status] of written.statuses) {
      const row = rows.get(name);
      if (row) rows.set(name, { ...row, status });
    }
    return { ...notWritten(rows, { kind: 'contended' }), contended: true };
  }
}

/**
 * The blockers whose locks may be dead: those not among the rows read (looked up then), and
 * those read with their lease run out or their holder idle past the limit. A refusal by live
 * locks alone so costs no statement beyond the read (and a share of the denials' INSERT).
 */
function possiblyDead(blockers: string[], rows: ReadonlyMap<string, LockRow>): string[] {
  return blockers.filter((table) => {
    const row = rows.get(table);
    return !row || row.leaseExpired || row.idleExpired !== false;
  });
}

/**
 * Expires the dead locks (lease run out, or holder idle past the limit) among `tables`, or
 * among all tables when null: each recorded and announced as `expire` by `system`, with the
 * reason. Answers the tables it expired.
 */
export async function expireDeadLocks(db: Queryable, tables: string[] | null): Promise<string[]> {
  if (tables?.length === 0) return [];
  const expired: string[] = [];
  for (const { tableName, idle } of await readDeadLocks(db, tables)) {
    const result = await changeTableLock(
      db,
      { kind: 'expire', tableName, idle },
      { actor: 'system', reason: idle ? IDLE_REASON : LEASE_EXPIRED_REASON },
    );
    if (result.written) expired.push(tableName);
  }
  return expired;
}
