import type { PendingChanges, SaveError } from '../changes/PendingChanges';
import type { ValidationIssue } from '../changes/validateValue';

/** One thing that keeps the pending changes from saving, at its cell (or its row). */
export interface Problem {
  rowId: string;
  /** The column at fault; null when the row as a whole is (a conflict, say). */
  column: string | null;
  /** What the last save or check refused, or a value the grid already knows it cannot save. */
  cause: { kind: 'refused'; error: SaveError } | { kind: 'invalid'; issue: ValidationIssue };
}

/**
 * Every problem of the pending changes, in the grid's order: new rows (on top, as they are
 * shown), then the other rows in the order they were sent; within a row, the row's own problem
 * first, then by column. A cell the grid already finds invalid shows that, not the database's
 * word for the same value.
 */
export function problemsOf(pending: PendingChanges, columnOrder: readonly string[]): Problem[] {
  const problems: Problem[] = pending.invalidCells().map(({ rowId, column, issue }) => ({
    rowId,
    column,
    cause: { kind: 'invalid', issue },
  }));
  const invalid = new Set(problems.map(({ rowId, column }) => `${rowId}\n${column}`));
  for (const { rowId, errors } of pending.allSaveErrors()) {
    for (const error of errors) {
      if (!invalid.has(`${rowId}\n${error.column}`)) {
        problems.push({ rowId, column: error.column, cause: { kind: 'refused', error } });
      }
    }
  }
  const { origins } = pending.toRowChanges();
  const rowOrder = [...origins.insert, ...origins.update, ...origins.delete];
  const place = (problem: Problem) => [
    rowOrder.indexOf(problem.rowId),
    problem.column === null ? -1 : columnOrder.indexOf(problem.column),
  ];
  return problems.sort((a, b) => {
    const [rowA = 0, columnA = 0] = place(a);
    const [rowB = 0, columnB = 0] = place(b);
    return rowA - rowB || columnA - columnB;
  });
}

/**
 * The problem after (step 1) or before (step -1) the focused cell, going round: F8 and
 * Shift+F8. From a cell that is no problem, the first (or the last).
 */
export function nextProblem(
  problems: readonly Problem[],
  focused: { rowId: string; column: string } | null,
  step: 1 | -1,
): Problem | undefined {
  if (problems.length === 0) return undefined;
  const at = focused
    ? problems.findIndex(
        (problem) =>
          problem.rowId === focused.rowId &&
          (problem.column === focused.column || problem.column === null),
      )
    : -1;
  if (at === -1) return step === 1 ? problems[0] : problems[problems.length - 1];
  return problems[(at + step + problems.length) % problems.length];
}
