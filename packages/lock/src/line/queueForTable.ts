import type { Queryable } from '@tablelock/db';
import { wantsTable } from '../core/lineForTable';
import type { LockError } from '../core/lockError';
import type { LockIntent } from '../core/lockIntent';
import { blockingTables, type LockRefusal } from '../core/lockRefusal';
import { type LockPlan, planLockChange } from '../core/planLockChange';
import type { EditorRights } from '../core/tableRules';
import type { Waiter } from '../core/waiter';
import { withHolderEditors } from '../ops/acquireTableLock';
import type { LockEventRecord } from '../reads/readLockEvents';
import { isRegisteredTable } from '../sql/isRegisteredTable';
import { readLockScope } from '../sql/lockScope';
import { notAMasterTable } from '../sql/notAMasterTable';
import { type JoinedPlace, joinLine } from './joinLine';
import { freesAnyOf, type LockChanges, LockChangeWatch } from './lockChangeWatch';
import { readWaiters, reserveTurn } from './lockQueue';
import type { UnfinishedLeaves } from './unfinishedLeaves';
import type { WaiterAdmission } from './waiterLimit';
import { waitWouldNotEnd } from './waitWouldNotEnd';
import { wakesWaiter } from './wakesWaiter';

/** A person's place in the line for a table. */
export interface QueuePlace {
  table: string;
  state: 'waiting' | 'yourTurn' | 'acquired' | 'expired';
  /** 1 when nobody is ahead. */
  position: number;
  ahead: Waiter[];
  reservedUntil: Date | null;
}

export interface QueueForTable {
  tableName: string;
  editor: string;
  /** The person's role and groups: the table's policy of who may edit applies to waiting too. */
  rights: EditorRights;
  /** The person's limit of places in line (TOO_MANY_WAITERS beyond it). */
  admission?: WaiterAdmission;
  /** This process's mark on its waiters (see waitForTableLocks). */
  owner: string;
  /** This process's places in line that it could not give up yet. */
  unfinishedLeaves: UnfinishedLeaves;
  /** How long the table is held for the person when their turn comes. */
  reservationSeconds: number;
  /** Lock changes as they commit, from before the call on. */
  changes: LockChanges;
  /** The person went away (closed the page): they leave the line at once. */
  signal: AbortSignal;
}

/**
 * "Notify me when free": keeps a person in the line for a table while they wait, announcing
 * their place whenever it changes. When their turn comes (the table and everything it would
 * lock are free, and nobody is in line first) it holds the table for them for a short
 * reservation, in which they start editing themselves (acquireTableLock lets the first in
 * line through); it ends with `acquired` when they did, or `expired`. Ending it (the signal)
 * leaves the line. A refusal no wait can end (read-only, frozen, not among those who may edit,
 * the person's own editing; see waitWouldNotEnd) is answered at once, before joining, and ends
 * the wait if it arises later: such a waiter would only hold up everyone behind it.
 */
export async function* queueForTable(
  db: Queryable,
  request: QueueForTable,
): AsyncGenerator<QueuePlace> {
  const { tableName, editor, signal } = request;
  if (!(await isRegisteredTable(db, tableName))) throw await notAMasterTable(db, tableName);
  const watch = new LockChangeWatch(request.changes);
  const plan = async (waiterId?: string) => {
    const rows = await readLockScope(db, tableName, [], false, {
      editor,
      ...(waiterId ? { waiterId } : {}),
    });
    const intent: LockIntent = {
      kind: 'acquire',
      tableName,
      namedFkTables: [],
      editor,
      leaseSeconds: null,
      rights: request.rights,
      ...(waiterId ? { waiterId } : {}),
    };
    return { rows, plan: planLockChange(intent, rows) };
  };
  const hopeless = await hopelessRefusal(db, (await plan()).plan, tableName, editor);
  if (hopeless) throw hopeless;
  const leaveLimit = request.admission?.limit.enter(request.admission.principal);
  let place: JoinedPlace;
  try {
    place = await joinLine(
      db,
      { tables: [tableName], editor, actor: editor, owner: request.owner, rights: request.rights },
      request.unfinishedLeaves,
    );
  } catch (error) {
    leaveLimit?.();
    throw error;
  }
  const { waiter } = place;
  let outcome = 'left';
  try {
    let announced: string | undefined;
    for (;;) {
      const { rows, plan: now } = await plan(waiter.id);
      if (now.granted) {
        const reservedUntil = await reserveTurn(db, waiter.id, request.reservationSeconds);
        if (!reservedUntil) return;
        yield { table: tableName, state: 'yourTurn', position: 1, ahead: [], reservedUntil };
        const woke = await watch.until(
          (event) =>
            event.action === 'acquire' && event.tableName === tableName && event.editor === editor,
          reservedUntil.getTime(),
          signal,
        );
        if (woke === 'changed' || woke === 'timedOut') {
          outcome = woke === 'changed' ? 'acquired' : 'reservation expired';
          yield {
            table: tableName,
            state: woke === 'changed' ? 'acquired' : 'expired',
            position: 1,
            ahead: [],
            reservedUntil: null,
          };
        }
        return;
      }
      const nowHopeless = await hopelessRefusal(db, now, tableName, editor);
      if (nowHopeless) {
        outcome = 'refused';
        throw nowHopeless;
      }
      const references = rows.get(tableName)?.references ?? [];
      const ahead = (await readWaiters(db)).filter(
        (other) => BigInt(other.id) < BigInt(waiter.id) && wantsTable(other, tableName, references),
      );
      const place: QueuePlace = {
        table: tableName,
        state: 'waiting',
        position: ahead.length + 1,
        ahead,
        reservedUntil: null,
      };
      const key = ahead.map((other) => other.id).join();
      if (key !== announced) {
        announced = key;
        yield place;
      }
      // Only the head of the line tries on a release; the others look again when one before
      // them leaves, which moves them up (see wakesWaiter).
      const wakes = await wakesWaiter(
        db,
        waiter.id,
        freesAnyOf(new Set([tableName, ...blockingTables(now.refusal)])),
      );
      const movesUp = (event: LockEventRecord) =>
        event.action === 'dequeued' &&
        ahead.some(
          (other) => other.editor === event.editor && other.tables.includes(event.tableName),
        );
      const woke = await watch.until(
        (event) => wakes(event) || movesUp(event),
        Number.POSITIVE_INFINITY,
        signal,
      );
      if (woke !== 'changed') return;
    }
  } finally {
    leaveLimit?.();
    await request.unfinishedLeaves.leave(db, place.attempt, outcome);
  }
}

/** The error to answer when no wait can end the refusal of `plan` (see waitWouldNotEnd). */
async function hopelessRefusal(
  db: Queryable,
  plan: LockPlan,
  tableName: string,
  editor: string,
): Promise<LockError | null> {
  if (plan.granted) return null;
  const refused: LockRefusal = await withHolderEditors(db, plan.refusal);
  return waitWouldNotEnd({ refused, tableName }, editor);
}
