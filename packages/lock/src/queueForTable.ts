import type { Queryable } from '@tablelock/db';
import { isRegisteredTable } from './isRegisteredTable';
import { wantsTable } from './lineForTable';
import { freesAnyOf, type LockChanges, LockChangeWatch } from './lockChangeWatch';
import { LockError } from './lockError';
import type { LockIntent } from './lockIntent';
import { joinLockQueue, leaveLockQueue, readWaiters, reserveTurn, type Waiter } from './lockQueue';
import { blockingTables } from './lockRefusal';
import { readLockScope } from './lockRegistrySql';
import { planLockChange } from './planLockChange';

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
  /** This process's mark on its waiters (see waitForTableLocks). */
  owner: string;
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
 * leaves the line.
 */
export async function* queueForTable(
  db: Queryable,
  request: QueueForTable,
): AsyncGenerator<QueuePlace> {
  const { tableName, editor, signal } = request;
  if (!(await isRegisteredTable(db, tableName))) {
    throw new LockError('TABLE_NOT_FOUND', `No master table is named ${tableName}.`);
  }
  const watch = new LockChangeWatch(request.changes);
  const waiter = await joinLockQueue(db, {
    tables: [tableName],
    editor,
    actor: editor,
    owner: request.owner,
  });
  let outcome = 'left';
  try {
    let announced: string | undefined;
    for (;;) {
      const rows = await readLockScope(db, tableName, [], false, { editor, waiterId: waiter.id });
      const intent: LockIntent = {
        kind: 'acquire',
        tableName,
        namedFkTables: [],
        editor,
        leaseSeconds: null,
        waiterId: waiter.id,
      };
      const plan = planLockChange(intent, rows);
      if (plan.granted) {
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
      const blockers = new Set([tableName, ...blockingTables(plan.refusal)]);
      const woke = await watch.until(freesAnyOf(blockers), Number.POSITIVE_INFINITY, signal);
      if (woke !== 'changed') return;
    }
  } finally {
    await leaveLockQueue(db, waiter.id, outcome);
  }
}
