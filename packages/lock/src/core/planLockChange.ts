import type { Blocker } from './blocker';
import { type EditBlock, editBlockOf, policyBlockOf } from './editBlock';
import { holderRefusal } from './holderRefusal';
import { LockError } from './lockError';
import type { LockIntent } from './lockIntent';
import type { LockRefusal } from './lockRefusal';
import type { LockRow, LockRowChange } from './lockRow';
import { cappedLease, DEFAULT_TABLE_RULES } from './tableRules';
import { takeOverRefusal } from './takeOverRule';

export type LockPlan =
  | { granted: true; changes: LockRowChange[] }
  /** Why not, naming who is in the way. */
  | { granted: false; refusal: LockRefusal };

/**
 * The state machine: given the rows of every table involved (read in one snapshot), decides
 * whether the intent's conditions hold and, if so, what every changed row becomes. Pure, so
 * every rule can be tested without a database. Refusals no retry can fix throw a LockError.
 */
export function planLockChange(intent: LockIntent, rows: ReadonlyMap<string, LockRow>): LockPlan {
  const main = requireRow(rows, intent.tableName);
  switch (intent.kind) {
    case 'acquire':
      return planAcquire(intent, main, rows);
    case 'release':
      return planRelease(intent, main, rows);
    case 'forceRelease':
      if (main.status !== 'editing') throw notEditing(main);
      return releaseAll(main, rows);
    case 'expire':
      if (main.status !== 'editing' || !(intent.idle ? main.idleExpired : main.leaseExpired)) {
        return { granted: false, refusal: { kind: 'leaseRunning' } };
      }
      return releaseAll(main, rows);
    case 'renew':
      requireCurrentAcquisition(main, intent.editor, intent.token);
      throwIf(holderRefusal(main, intent.rights));
      return {
        granted: true,
        changes: [
          { row: main, leaseSeconds: leaseFor(main, intent.leaseSeconds), active: intent.active },
        ],
      };
    case 'takeOver':
      if (main.status !== 'editing') throw notEditing(main);
      throwIf(takeOverRefusal(main, intent, intent));
      return {
        granted: true,
        changes: [
          {
            row: { ...main, editor: intent.editor },
            grant: true,
            leaseSeconds: leaseFor(main, intent.leaseSeconds),
          },
        ],
      };
  }
}

/** The lease asked for, cut to the table's maximum (see cappedLease). */
function leaseFor(main: LockRow, leaseSeconds: number | null): number | null {
  return cappedLease(leaseSeconds, main.rules ?? DEFAULT_TABLE_RULES);
}

/**
 * The FK tables an acquisition or release covers: those the caller named, then the discovered
 * ones; an acquisition leaves out those its own request edits (`coEdited`).
 */
export function fkTablesOf(intent: LockIntent, main: LockRow): string[] {
  const named = 'namedFkTables' in intent ? intent.namedFkTables : [];
  const coEdited = intent.kind === 'acquire' ? (intent.coEdited ?? []) : [];
  const discovered = main.references.filter(
    (name) => !named.includes(name) && name !== intent.tableName && !coEdited.includes(name),
  );
  return [...named, ...discovered];
}

function planAcquire(
  intent: Extract<LockIntent, { kind: 'acquire' }>,
  main: LockRow,
  rows: ReadonlyMap<string, LockRow>,
): LockPlan {
  // The tables it would lock matter only once the table itself is free; those left out of
  // locking are never locked.
  const fkRows =
    main.status === 'normal'
      ? fkTablesOf(intent, main)
          .map((name) => requireRow(rows, name))
          .filter((row) => row.rules?.takesPartInLocking !== false)
      : [];
  const block =
    policyBlockOf(main, intent.rights) ??
    editBlockOf(main, fkRows, (holder) => rows.get(holder)?.editor ?? null) ??
    queueBlockOf([main, ...fkRows]);
  if (block) return { granted: false, refusal: block };
  return {
    granted: true,
    changes: [
      {
        row: { ...main, status: 'editing', editor: intent.editor, lockedBy: [] },
        grant: true,
        leaseSeconds: leaseFor(main, intent.leaseSeconds),
      },
      ...fkRows.map(
        (row): LockRowChange => ({
          row: {
            ...row,
            status: 'locked',
            editor: null,
            lockedBy: [...new Set([...row.lockedBy, intent.tableName])].sort(),
          },
        }),
      ),
    ],
  };
}

function planRelease(
  intent: Extract<LockIntent, { kind: 'release' }>,
  main: LockRow,
  rows: ReadonlyMap<string, LockRow>,
): LockPlan {
  if (main.status !== 'editing') return { granted: false, refusal: { kind: 'notEditing' } };
  if (main.editor !== intent.editor) {
    throw new LockError(
      'FORBIDDEN',
      `${intent.tableName} is being edited by ${main.editor}; only the holder can release it.`,
    );
  }
  if (intent.token !== undefined) requireCurrentAcquisition(main, intent.editor, intent.token);
  const notHeld = intent.namedFkTables.filter(
    (name) => !requireRow(rows, name).lockedBy.includes(intent.tableName),
  );
  if (notHeld.length > 0) return { granted: false, refusal: { kind: 'notHeld', tables: notHeld } };
  return releaseAll(main, rows);
}

/** Those in line first for any of `rows`, once each, first in line first. */
export function queueBlockOf(rows: LockRow[]): EditBlock | null {
  const ahead = new Map<string, Blocker>();
  for (const row of rows) {
    for (const waiter of row.waitersAhead ?? [])
      ahead.set(`${waiter.editor}\u0000${waiter.table}`, waiter);
  }
  return ahead.size > 0 ? { kind: 'queued', blockers: [...ahead.values()] } : null;
}

// Every hold of the table goes, wherever it is: also on tables it no longer references. A table
// that tables being edited reference, edited by the same request as they were (see coEdited),
// stays `locked` for them rather than becoming free under them.
function releaseAll(main: LockRow, rows: ReadonlyMap<string, LockRow>): LockPlan {
  const heldRows = [...rows.values()].filter((row) => row.lockedBy.includes(main.tableName));
  const editingReferrers = [...rows.values()]
    .filter(
      (row) =>
        row.status === 'editing' &&
        row.tableName !== main.tableName &&
        row.references.includes(main.tableName),
    )
    .map((row) => row.tableName)
    .sort();
  const mainAfter: LockRow =
    editingReferrers.length > 0
      ? { ...main, status: 'locked', editor: null, lockedBy: editingReferrers }
      : { ...main, status: 'normal', editor: null };
  return {
    granted: true,
    changes: [
      { row: mainAfter },
      ...heldRows.map((row): LockRowChange => {
        const lockedBy = row.lockedBy.filter((holder) => holder !== main.tableName);
        return { row: { ...row, status: lockedBy.length > 0 ? 'locked' : 'normal', lockedBy } };
      }),
    ],
  };
}

/**
 * The caller's acquisition must be the table's current one, and alive (its lease not run out,
 * its holder not idle past the limit): else LOCK_LOST.
 */
function requireCurrentAcquisition(main: LockRow, editor: string, token: string) {
  const current =
    main.status === 'editing' &&
    main.editor === editor &&
    main.fencingToken === token &&
    !main.leaseExpired &&
    !main.idleExpired;
  if (!current)
    throw new LockError('LOCK_LOST', `Lock ${token} on ${main.tableName} is no longer held.`);
}

function throwIf(refusal: LockError | null): void {
  if (refusal) throw refusal;
}

function notEditing(main: LockRow): LockError {
  const why =
    main.status === 'locked'
      ? `it is locked because ${holdersBeingEdited(main)}; release that instead`
      : 'nobody is editing it';
  return new LockError('INVALID_TRANSITION', `${main.tableName}: ${why}.`);
}

/** "products is being edited", "a, b are being edited": why a `locked` table is locked. */
function holdersBeingEdited(row: LockRow): string {
  return `${row.lockedBy.join(', ')} ${row.lockedBy.length > 1 ? 'are' : 'is'} being edited`;
}

function requireRow(rows: ReadonlyMap<string, LockRow>, name: string): LockRow {
  const row = rows.get(name);
  if (!row) throw new LockError('TABLE_NOT_FOUND', `No master table is named ${name}.`);
  return row;
}
