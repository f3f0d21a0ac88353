import type { Queryable } from '@tablelock/db';
import { inSpan } from '@tablelock/tracing';
import { isGranted, type LockAnswer, refusalDetails } from '../core/lockAnswer';
import { LockError } from '../core/lockError';
import { blockingTables, describeLockRefusal, type LockRefusal } from '../core/lockRefusal';
import { acquireRowScope, scopeGroundOf } from '../ops/acquireRowScope';
import { type AcquireTableLocks, acquireTableLocks } from '../ops/acquireTableLocks';
import type { LockGrant } from '../ops/lockGrant';
import { type JoinedPlace, joinLine } from './joinLine';
import { freesAnyOf, type LockChanges, LockChangeWatch } from './lockChangeWatch';
import { leaveEarlierJoin } from './lockQueue';
import type { UnfinishedLeaves } from './unfinishedLeaves';
import type { WaiterAdmission } from './waiterLimit';
import { waitWouldNotEnd } from './waitWouldNotEnd';
import { wakesWaiter } from './wakesWaiter';

export const MAX_WAIT_SECONDS = 3600;

export interface WaitForTableLocks extends AcquireTableLocks {
  /** How long to wait at most, in seconds (from 1 to MAX_WAIT_SECONDS). */
  waitSeconds: number;
  /** This process's mark on its waiters: the application_name of its LISTEN connection. */
  owner: string;
  /** This process's places in line that it could not give up yet. */
  unfinishedLeaves: UnfinishedLeaves;
  /** The same for every retry of one request (from its idempotency key): see joinLockQueue. */
  joinKey?: string;
  /** Lock changes as they commit, from before the call on. */
  changes: LockChanges;
  /** The caller went away: it leaves the line at once. */
  signal?: AbortSignal;
  /** The caller's limit of places in line (TOO_MANY_WAITERS beyond it); none for trusted callers. */
  admission?: WaiterAdmission;
  /** A row scope of the one table instead of the whole (docs/decisions/0021). */
  scope?: { rows: string[]; masterSchema: string };
}

/** Runs one attempt to take the tables: e.g. once per idempotency key (see runIdempotently). */
export type AttemptRunner = (
  acquire: (db: Queryable) => Promise<LockAnswer<LockGrant[]>>,
) => Promise<LockAnswer<LockGrant[]>>;

/**
 * Takes the tables (all or nothing, as acquireTableLocks), waiting in line first if anyone is in
 * the way: first come, first served across API processes. The line is kept in Postgres; the
 * waiter tries again only when a change that may free its way commits (announced by NOTIFY),
 * never on a timer, and only the head of the line tries on a release: the others wait for the
 * one just before them to leave (see wakesWaiter). LOCK_WAIT_TIMEOUT, naming who is still in
 * the way, after `waitSeconds`. A refusal no wait can end (an admin's rules, the caller's own
 * editing; see waitWouldNotEnd) is answered at once, never waited for, so it holds nobody up.
 * The line is joined and left on `db` itself, so that others see it at once; each attempt runs
 * through `attempt` (its own transaction, say).
 */
export async function waitForTableLocks(
  db: Queryable,
  request: WaitForTableLocks,
  attempt: AttemptRunner = (acquire) => acquire(db),
): Promise<LockGrant[]> {
  requireWaitSeconds(request.waitSeconds);
  const deadline = Date.now() + request.waitSeconds * 1000;
  const watch = new LockChangeWatch(request.changes);
  const acquisition = await acquisitionFor(db, request);
  const first = await attempt((tx) => acquisition.acquire(tx));
  if (isGranted(first)) {
    if (request.joinKey) await leaveEarlierJoin(db, request.joinKey, 'acquired');
    return first.granted;
  }
  const hopeless = waitWouldNotEnd(first, request.editor);
  if (hopeless) throw hopeless;
  // The wait in line is a span of its own: how long the caller stood there, and how it ended.
  return inSpan(
    'tablelock.wait_in_line',
    { 'tablelock.tables': request.tableNames },
    async (span) => {
      const leaveLimit = request.admission?.limit.enter(request.admission.principal);
      let place: JoinedPlace;
      try {
        place = await joinLine(
          db,
          {
            tables: request.tableNames,
            ...(acquisition.rows ? { rows: acquisition.rows } : {}),
            editor: request.editor,
            actor: request.actor ?? request.editor,
            owner: request.owner,
            ...(request.rights ? { rights: request.rights } : {}),
            ...(request.joinKey ? { joinKey: request.joinKey } : {}),
          },
          request.unfinishedLeaves,
        );
      } catch (error) {
        leaveLimit?.();
        throw error;
      }
      const { waiter } = place;
      let outcome = 'left';
      try {
        let refusal = first;
        // A place taken up again may be first in line already, with nothing left to change: the
        // first look was refused for the place itself.
        let lookNow = place.adopted;
        for (;;) {
          // A contended attempt met another change in flight: it waits for its rows next time.
          if (!lookNow && refusal.refused.kind !== 'contended') {
            const wakes = await wakesWaiter(
              db,
              waiter.id,
              freesAnyOf(new Set(blockingTables(refusal.refused))),
            );
            const woke = await watch.until(wakes, deadline, request.signal);
            if (woke === 'timedOut') {
              outcome = 'timed out';
              throw waitTimeout(refusal, request.waitSeconds);
            }
            if (woke !== 'changed') throw new Error('The waiter left the line.');
          }
          lookNow = false;
          const answer = await attempt((tx) => acquisition.acquire(tx, waiter.id));
          if (isGranted(answer)) {
            outcome = 'acquired';
            return answer.granted;
          }
          const nowHopeless = waitWouldNotEnd(answer, request.editor);
          if (nowHopeless) {
            outcome = 'refused';
            throw nowHopeless;
          }
          refusal = answer;
        }
      } finally {
        leaveLimit?.();
        span.setAttribute('tablelock.outcome', outcome);
        await request.unfinishedLeaves.leave(db, place.attempt, outcome);
      }
    },
  );
}

interface Acquisition {
  acquire(db: Queryable, waiterId?: string): Promise<LockAnswer<LockGrant[]>>;
  /** A row scope's values as the column reads them. */
  rows?: string[];
}

/**
 * How the request attempts: its tables whole, or its row scope of the one table (its values read
 * as the column reads them first, so that its place in line compares them as holders' are).
 * With `waiterId`, from that place in line; a refusal is never recorded (the wait's outcome is).
 */
async function acquisitionFor(db: Queryable, request: WaitForTableLocks): Promise<Acquisition> {
  const { scope } = request;
  const [tableName] = request.tableNames;
  if (!scope || tableName === undefined || request.tableNames.length !== 1) {
    return {
      acquire: (tx, waiterId) =>
        acquireTableLocks(tx, {
          ...request,
          ...(waiterId ? { waiterId, waitForRows: true } : {}),
          recordDenial: false,
        }),
    };
  }
  const { rows } = await scopeGroundOf(db, {
    tableName,
    rows: scope.rows,
    masterSchema: scope.masterSchema,
  });
  return {
    rows,
    acquire: async (tx, waiterId) => {
      const answer = await acquireRowScope(tx, {
        ...request,
        tableName,
        rows,
        masterSchema: scope.masterSchema,
        leaseSeconds: request.leaseSeconds ?? null,
        ...(waiterId ? { waiterId } : {}),
        recordDenial: false,
      });
      return 'granted' in answer ? { granted: [answer.granted] } : answer;
    },
  };
}

function waitTimeout(
  { refused, tableName }: { refused: LockRefusal; tableName: string },
  waitSeconds: number,
): LockError {
  return new LockError(
    'LOCK_WAIT_TIMEOUT',
    `Waited ${waitSeconds} s; still in the way: ${describeLockRefusal(tableName, refused)}.`,
    refusalDetails(refused),
  );
}

function requireWaitSeconds(waitSeconds: number): void {
  if (!Number.isInteger(waitSeconds) || waitSeconds < 1 || waitSeconds > MAX_WAIT_SECONDS) {
    throw new LockError(
      'BAD_USER_INPUT',
      `wait must be a whole number of seconds from 1 to ${MAX_WAIT_SECONDS}.`,
    );
  }
}
