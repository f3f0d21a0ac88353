import { MasterDataError } from '../masterDataError';
import type { RowValues } from '../readRows';
import type { RecordedRowChange } from './historyRecords';
import { rowKeyId } from './rowKey';

/** What reverting a change does to one row. */
export interface RevertStep {
  key: RowValues;
  action: 'insert' | 'update' | 'delete';
  /** The values written (insert: the whole row; update: the columns restored); null for a delete. */
  values: RowValues | null;
}

export type RevertConflictReason = 'changedLater' | 'goneSince' | 'backSince';

export interface RevertConflict<Later> {
  key: RowValues;
  reason: RevertConflictReason;
  /** The first later change that touched the row, if the history has one. */
  later: Later | null;
}

/** A foreign key of a table to itself: its rows must be written parents first. */
export interface SelfReference {
  columns: string[];
  targetColumns: string[];
}

export interface RevertInput<Later> {
  /** The change's row changes, in the order they were written. */
  changes: RecordedRowChange[];
  /** By `rowKeyId`: the first change after this one that touched the row. */
  laterChanges: ReadonlyMap<string, Later>;
  /** By `rowKeyId`: whether the row exists now. */
  existsNow: ReadonlySet<string>;
  /** The keys chosen; null for every row the change touched that nobody changed since. */
  picked: RowValues[] | null;
  selfReferences: SelfReference[];
}

export interface RevertPlan<Later> {
  /** Undeletes (parents first), then updates, then deletes (children first). */
  steps: RevertStep[];
  conflicts: RevertConflict<Later>[];
}

/** The row before the change: absent, or present with the values known of it. */
type RowState = { present: false } | { present: true; values: RowValues; whole: boolean };

/**
 * Plans the revert of one change: for each row it touched, the write that brings back its state
 * from before the change. A row that a later change touched (or whose existence no longer
 * matches what the change left) is a conflict and left alone, unless it was picked; a picked
 * row is written over whatever came later, when its old state is known well enough to do so.
 */
export function planRevert<Later>(input: RevertInput<Later>): RevertPlan<Later> {
  const byRow = new Map<string, RecordedRowChange[]>();
  for (const change of input.changes) {
    const id = rowKeyId(change.key);
    byRow.set(id, [...(byRow.get(id) ?? []), change]);
  }
  const picked = input.picked && new Set(input.picked.map(rowKeyId));
  for (const id of picked ?? []) {
    if (!byRow.has(id)) {
      throw new MasterDataError('BAD_USER_INPUT', `The change did not touch the row ${id}.`);
    }
  }
  const steps: RevertStep[] = [];
  // A row to delete is known by key only: its values as the change left it order the deletes.
  const valuesAfter = new Map<RevertStep, RowValues>();
  const conflicts: RevertConflict<Later>[] = [];
  for (const [id, changes] of byRow) {
    if (picked && !picked.has(id)) continue;
    const key = (changes[0] as RecordedRowChange).key;
    const before = stateBefore(changes);
    const presentAfter = (changes.at(-1) as RecordedRowChange).operation !== 'delete';
    const existsNow = input.existsNow.has(id);
    const later = input.laterChanges.get(id) ?? null;
    const conflict: RevertConflictReason | null = later
      ? 'changedLater'
      : presentAfter && !existsNow
        ? 'goneSince'
        : !presentAfter && existsNow
          ? 'backSince'
          : null;
    const step = restore(key, before, existsNow);
    if (conflict && (!picked || step === 'unknown')) {
      conflicts.push({ key, reason: conflict, later });
    } else if (step !== null && step !== 'unknown') {
      steps.push(step);
      valuesAfter.set(step, stateAfter(changes));
    }
  }
  return { steps: ordered(steps, input.selfReferences, valuesAfter), conflicts };
}

/** Undoes the row's changes from the last to the first. */
function stateBefore(changes: RecordedRowChange[]): RowState {
  let state: RowState = { present: true, values: {}, whole: false };
  for (const change of [...changes].reverse()) {
    if (change.operation === 'insert') state = { present: false };
    else if (change.operation === 'delete') {
      state = { present: true, values: { ...change.oldValues }, whole: true };
    } else if (state.present) {
      state = { ...state, values: { ...state.values, ...change.oldValues } };
    } else {
      // An update after an insert of the same change: the insert decides.
      state = { present: true, values: { ...change.oldValues }, whole: false };
    }
  }
  return state;
}

/** The values the change left in the row, as far as it wrote them. */
function stateAfter(changes: RecordedRowChange[]): RowValues {
  let values: RowValues = {};
  for (const change of changes) {
    values =
      change.operation === 'insert' ? { ...change.newValues } : { ...values, ...change.newValues };
  }
  return values;
}

/** The write that gives the row its old state now; 'unknown' when its old values are not all known. */
function restore(
  key: RowValues,
  before: RowState,
  existsNow: boolean,
): RevertStep | null | 'unknown' {
  if (!before.present) return existsNow ? { key, action: 'delete', values: null } : null;
  if (existsNow) {
    const values = Object.fromEntries(
      Object.entries(before.values).filter(([column]) => !(column in key)),
    );
    return Object.keys(values).length > 0 ? { key, action: 'update', values } : null;
  }
  return before.whole ? { key, action: 'insert', values: before.values } : 'unknown';
}

function ordered(
  steps: RevertStep[],
  selfReferences: SelfReference[],
  valuesAfter: ReadonlyMap<RevertStep, RowValues>,
): RevertStep[] {
  const inserts = steps.filter((step) => step.action === 'insert');
  const deletes = steps.filter((step) => step.action === 'delete');
  return [
    ...parentsFirst(inserts, selfReferences, (step) => step.values ?? {}),
    ...steps.filter((step) => step.action === 'update'),
    ...parentsFirst(deletes, selfReferences, (step) => ({
      ...valuesAfter.get(step),
      ...step.key,
    })).reverse(),
  ];
}

/** Rows in an order where each comes after the rows of the same list it references. */
function parentsFirst(
  steps: RevertStep[],
  selfReferences: SelfReference[],
  valuesOf: (step: RevertStep) => RowValues,
): RevertStep[] {
  const done = new Set<RevertStep>();
  const visiting = new Set<RevertStep>();
  const result: RevertStep[] = [];
  const visit = (step: RevertStep) => {
    if (done.has(step) || visiting.has(step)) return;
    visiting.add(step);
    const values = valuesOf(step);
    for (const parent of steps) {
      if (
        parent !== step &&
        selfReferences.some((ref) => references(values, valuesOf(parent), ref))
      ) {
        visit(parent);
      }
    }
    visiting.delete(step);
    done.add(step);
    result.push(step);
  };
  for (const step of steps) visit(step);
  return result;
}

function references(child: RowValues, parent: RowValues, ref: SelfReference): boolean {
  return ref.columns.every((column, index) => {
    const value = child[column];
    const target = ref.targetColumns[index] as string;
    return value !== null && value !== undefined && value === parent[target];
  });
}
