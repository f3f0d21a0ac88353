import type { GridApi } from 'ag-grid-community';
import type { GridRow } from '../changes/gridRow';
import type { PendingChanges } from '../changes/PendingChanges';
import type { Problem } from './problemList';

/**
 * Moves the grid's focus to the problem's cell (a row's own problem: its first column),
 * scrolled into view. False when the row is not loaded in the grid (scrolled far away in a
 * long table, or filtered out): there is no cell to focus.
 */
export function focusProblem(
  api: GridApi<GridRow>,
  pending: PendingChanges,
  problem: Problem,
  firstColumn: string,
): boolean {
  const column = problem.column ?? firstColumn;
  if (api.getEditingCells().length > 0) api.stopEditing();
  if (pending.isNew(problem.rowId)) {
    const index = pending.newRows().findIndex((row) => row.id === problem.rowId);
    if (index === -1) return false;
    api.ensureColumnVisible(column);
    api.setFocusedCell(index, column, 'top');
    return true;
  }
  const rowIndex = api.getRowNode(problem.rowId)?.rowIndex;
  if (rowIndex === null || rowIndex === undefined) return false;
  api.ensureIndexVisible(rowIndex);
  api.ensureColumnVisible(column);
  api.setFocusedCell(rowIndex, column);
  return true;
}

/** The row and column of the grid's focused cell, if a cell of a row has the focus. */
export function focusedCell(api: GridApi<GridRow>): { rowId: string; column: string } | null {
  const cell = api.getFocusedCell();
  if (!cell) return null;
  const row =
    cell.rowPinned === 'top'
      ? api.getPinnedTopRow(cell.rowIndex)
      : api.getDisplayedRowAtIndex(cell.rowIndex);
  return row?.data ? { rowId: row.data.id, column: cell.column.getColId() } : null;
}
