import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RecordedRowChange } from '../src/history/historyRecords';
import { planRevert, type RevertStep } from '../src/history/planRevert';
import { rowKeyId } from '../src/history/rowKey';
import type { RowValues } from '../src/readRows';

/** A table in memory: rows by key id. Column `id` is the key, `parent_id` points at a row. */
type Table = Map<string, RowValues>;

const IDS = ['1', '2', '3', '4', '5', '6'];
const COLUMNS = ['name', 'price', 'parent_id'] as const;
const value = fc.constantFrom(null, 'a', 'b', 'c');
const row = fc.record({ name: value, price: value, parent_id: fc.constantFrom(null, ...IDS) });

/** An edit names a row and what to do if it exists (update or delete) or not (insert). */
const edit = fc.record({ id: fc.constantFrom(...IDS), values: row, deleteIt: fc.boolean() });
/** A change: edits made in one transaction, by the grid, an import or SQL alike. */
const changes = fc.array(fc.array(edit, { minLength: 1, maxLength: 5 }), {
  minLength: 1,
  maxLength: 6,
});

type Edit = {
  id: string;
  values: Record<(typeof COLUMNS)[number], string | null>;
  deleteIt: boolean;
};

let rowChangeId = 0;

/** Applies one change as a writer would and records it as the history triggers do. */
function write(table: Table, edits: Edit[]) {
  const recorded: RecordedRowChange[] = [];
  for (const { id, values, deleteIt } of edits) {
    const key = { id };
    const current = table.get(rowKeyId(key));
    const entry = (fields: Omit<RecordedRowChange, 'id' | 'key'>) =>
      recorded.push({ id: String(++rowChangeId), key, ...fields });
    if (!current) {
      const inserted = { id, ...values };
      table.set(rowKeyId(key), inserted);
      entry({ operation: 'insert', oldValues: null, newValues: inserted });
    } else if (deleteIt) {
      table.delete(rowKeyId(key));
      entry({ operation: 'delete', oldValues: current, newValues: null });
    } else {
      const changed = COLUMNS.filter((column) => current[column] !== values[column]);
      if (changed.length === 0) continue;
      table.set(rowKeyId(key), { ...current, ...values });
      entry({
        operation: 'update',
        oldValues: Object.fromEntries(changed.map((column) => [column, current[column] ?? null])),
        newValues: Object.fromEntries(changed.map((column) => [column, values[column]])),
      });
    }
  }
  return recorded;
}

function apply(table: Table, steps: RevertStep[]) {
  for (const step of steps) {
    const id = rowKeyId(step.key);
    if (step.action === 'delete') table.delete(id);
    else if (step.action === 'insert') table.set(id, { ...step.values });
    else table.set(id, { ...table.get(id), ...step.values });
  }
}

describe('reverting change k', () => {
  it('gives back the table as it was before k, but for the rows touched later, which are reported', () => {
    fc.assert(
      fc.property(changes, fc.nat(), (edits, pick) => {
        const table: Table = new Map();
        const history = edits.map((list) => ({ before: new Map(table), rows: write(table, list) }));
        const k = pick % history.length;
        const { before, rows } = history[k] as (typeof history)[number];
        const touchedLater = new Map<string, number>();
        history.slice(k + 1).forEach((later, offset) => {
          for (const change of later.rows) {
            const id = rowKeyId(change.key);
            if (!touchedLater.has(id)) touchedLater.set(id, k + 1 + offset);
          }
        });
        const now = new Map(table);
        const plan = planRevert({
          changes: rows,
          laterChanges: touchedLater,
          existsNow: new Set(table.keys()),
          picked: null,
          selfReferences: [{ columns: ['parent_id'], targetColumns: ['id'] }],
        });
        apply(table, plan.steps);
        const touchedByK = new Set(rows.map((change) => rowKeyId(change.key)));
        for (const id of new Set([...before.keys(), ...now.keys()])) {
          if (touchedLater.has(id)) expect(table.get(id)).toEqual(now.get(id));
          else expect(table.get(id)).toEqual(before.get(id));
        }
        expect(plan.conflicts.map((conflict) => rowKeyId(conflict.key)).sort()).toEqual(
          [...touchedByK].filter((id) => touchedLater.has(id)).sort(),
        );
      }),
      { numRuns: 500 },
    );
  });

  it('writes every brought-back row after the brought-back row it points at', () => {
    fc.assert(
      fc.property(changes, (edits) => {
        const table: Table = new Map();
        const history = edits.map((list) => write(table, list));
        const plan = planRevert({
          changes: history.flat(),
          laterChanges: new Map(),
          existsNow: new Set(table.keys()),
          picked: null,
          selfReferences: [{ columns: ['parent_id'], targetColumns: ['id'] }],
        });
        const inserted = plan.steps.filter((step) => step.action === 'insert');
        // Rows that point at each other in a ring can only come back with deferred keys.
        fc.pre(!hasRing(inserted));
        inserted.forEach((step, index) => {
          const parent = inserted.findIndex((other) => other.key.id === step.values?.parent_id);
          if (parent !== -1 && parent !== index) expect(parent).toBeLessThan(index);
        });
      }),
      { numRuns: 300 },
    );
  });
});

function hasRing(steps: RevertStep[]): boolean {
  const parentOf = new Map(steps.map((step) => [step.key.id, step.values?.parent_id ?? null]));
  return steps.some((step) => {
    const seen = new Set<string>();
    let at: string | null | undefined = step.key.id;
    while (at && parentOf.has(at)) {
      if (seen.has(at)) return true;
      seen.add(at);
      at = parentOf.get(at);
    }
    return false;
  });
}
