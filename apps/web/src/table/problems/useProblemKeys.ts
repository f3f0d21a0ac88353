import type { GridApi } from 'ag-grid-community';
import { type RefObject, useEffect } from 'react';
import type { GridRow } from '../changes/gridRow';
import type { PendingChanges } from '../changes/PendingChanges';
import { focusedCell, focusProblem } from './focusProblem';
import { nextProblem, type Problem } from './problemList';

/**
 * F8 moves the focus to the next problem's cell, Shift+F8 to the previous one, from anywhere on
 * the page (the grid, a cell being edited, the toolbar), as in spreadsheets and IDEs.
 */
export function useProblemKeys(
  problems: readonly Problem[],
  pending: PendingChanges,
  grid: RefObject<GridApi<GridRow> | null>,
  firstColumn: string,
  onNotShown: () => void,
): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const api = grid.current;
      if (event.key !== 'F8' || event.altKey || event.ctrlKey || event.metaKey || !api) return;
      const problem = nextProblem(problems, focusedCell(api), event.shiftKey ? -1 : 1);
      if (!problem) return;
      event.preventDefault();
      if (!focusProblem(api, pending, problem, firstColumn)) onNotShown();
    };
    document.addEventListener('keydown', onKeyDown, true);
    return () => document.removeEventListener('keydown', onKeyDown, true);
  }, [problems, pending, grid, firstColumn, onNotShown]);
}
