import { describe, expect, it } from 'vitest';
import { PendingChanges } from '../src/table/changes/PendingChanges';
import type { ColumnRules } from '../src/table/changes/validateValue';
import { nextProblem, problemsOf } from '../src/table/problems/problemList';

const COLUMNS: ColumnRules[] = [
  { name: 'id', dataType: 'integer', kind: 'integer', nullable: false, hasDefault: false },
  { name: 'name', dataType: 'text', kind: 'text', nullable: false, hasDefault: false },
  { name: 'price', dataType: 'numeric', kind: 'decimal', nullable: true, hasDefault: false },
];
const ORDER = COLUMNS.map((column) => column.name);

function withRefusals() {
  const pending = new PendingChanges(COLUMNS);
  const row = (id: string) => ({
    id,
    key: { id },
    version: '1',
    values: { id, name: 'x', price: '1' },
  });
  pending.setValue(row('7'), 'price', '-1');
  pending.setValue(row('5'), 'name', 'Taken');
  const added = pending.addRow({ id: '9', name: 'New' });
  const { origins } = pending.toRowChanges();
  const details = {
    kind: 'CHECK',
    ...{ column: null, value: null, table: null, targetColumn: null, row: null, count: null },
    ...{ comparison: null, bound: null, upperBound: null, rule: null, period: null, holder: null },
  };
  const refusal = (change: 'insert' | 'update', index: number, column: string | null) => ({
    change,
    index,
    column,
    code: 'CHECK',
    message: 'refused',
    details,
  });
  pending.setSaveErrors(
    [refusal('update', 1, 'name'), refusal('update', 0, 'price'), refusal('insert', 0, null)],
    origins,
  );
  return { pending, added };
}

describe('the problems list', () => {
  it('puts new rows first (as the grid shows them), a row before its cells, cells by column', () => {
    const { pending, added } = withRefusals();
    expect(problemsOf(pending, ORDER).map(({ rowId, column }) => [rowId, column])).toEqual([
      [added.id, null],
      ['7', 'price'],
      ['5', 'name'],
    ]);
  });

  it('shows a value the grid finds invalid once, not also as the database refused it', () => {
    const { pending } = withRefusals();
    pending.setValue({ id: '7', key: { id: '7' }, version: '1', values: {} }, 'price', 'abc');
    const atPrice = problemsOf(pending, ORDER).filter((problem) => problem.rowId === '7');
    expect(atPrice.map((problem) => problem.cause.kind)).toEqual(['invalid']);
  });

  it('F8 goes to the next problem round, Shift+F8 back; from elsewhere to the first or last', () => {
    const problems = problemsOf(withRefusals().pending, ORDER);
    const [first, second, third] = problems;
    expect(nextProblem(problems, null, 1)).toBe(first);
    expect(nextProblem(problems, null, -1)).toBe(third);
    expect(nextProblem(problems, { rowId: '7', column: 'price' }, 1)).toBe(third);
    expect(nextProblem(problems, { rowId: '5', column: 'name' }, 1)).toBe(first);
    expect(nextProblem(problems, { rowId: '7', column: 'price' }, -1)).toBe(first);
    expect(nextProblem(problems, { rowId: '7', column: 'id' }, 1)).toBe(first);
    expect(second?.rowId).toBe('7');
    expect(nextProblem([], null, 1)).toBeUndefined();
  });
});
