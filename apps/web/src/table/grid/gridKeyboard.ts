import type { GridOptions } from 'ag-grid-community';
import type { GridRow } from '../changes/gridRow';

/**
 * The grid is one stop in the page's Tab order, as the ARIA data grid pattern has it: arrow
 * keys move between headers and cells, Tab moves on to the rest of the page (without this, Tab
 * walked through every cell of every loaded row). Only while a cell is being edited does Tab go
 * on to the next cell's editor, as in a spreadsheet. Tabbing back in returns to the cell the user
 * left, not to the first header.
 */
export const gridKeyboard = {
  tabToNextHeader: () => false,
  tabToNextCell: ({ editing, nextCellPosition }) => (editing ? (nextCellPosition ?? false) : false),
  focusGridInnerElement: ({ api }) => {
    const cell = api.getFocusedCell();
    if (!cell) return false;
    const rows = cell.rowPinned ? api.getPinnedTopRowCount() : api.getDisplayedRowCount();
    // Its row is gone (a new row removed, a filter changed): the grid's own choice then.
    if (cell.rowIndex >= rows) return false;
    if (!cell.rowPinned) api.ensureIndexVisible(cell.rowIndex);
    api.setFocusedCell(cell.rowIndex, cell.column, cell.rowPinned);
    return true;
  },
} satisfies Pick<
  GridOptions<GridRow>,
  'tabToNextHeader' | 'tabToNextCell' | 'focusGridInnerElement'
>;
