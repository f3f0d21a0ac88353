import type { CellPosition, Column, GridApi, IRowNode } from 'ag-grid-community';
import type { GridRow } from '../changes/gridRow';
import type { ColumnRules } from '../changes/validateValue';
import type { CellPoint } from './cellRange';

/** A place of the range in grid terms: the row's node (if loaded) and the table column. */
export interface GridCell {
  node: IRowNode<GridRow> | undefined;
  column: Column;
  tableColumn: ColumnRules;
}

/**
 * The grid seen as a rectangle of cells (the view's new rows on top, then the loaded rows; the
 * table's columns as displayed), for ranges, the clipboard and fill to address cells by number.
 */
export class GridCells {
  private readonly byName: ReadonlyMap<string, ColumnRules>;

  constructor(
    private readonly api: GridApi<GridRow>,
    tableColumns: readonly ColumnRules[],
  ) {
    this.byName = new Map(tableColumns.map((column) => [column.name, column]));
  }

  /** The table's columns in the order shown (the row status and checkbox columns are not cells). */
  columns(): Column[] {
    return this.api.getAllDisplayedColumns().filter((column) => this.byName.has(column.getColId()));
  }

  pinnedCount(): number {
    return this.api.getPinnedTopRowCount();
  }

  rowCount(): number {
    return this.pinnedCount() + this.api.getDisplayedRowCount();
  }

  node(row: number): IRowNode<GridRow> | undefined {
    const pinned = this.pinnedCount();
    return row < pinned
      ? this.api.getPinnedTopRow(row)
      : this.api.getDisplayedRowAtIndex(row - pinned);
  }

  cell(point: CellPoint): GridCell | undefined {
    const column = this.columns()[point.column];
    const tableColumn = column && this.byName.get(column.getColId());
    if (!column || !tableColumn) return undefined;
    return { node: this.node(point.row), column, tableColumn };
  }

  pointOf(position: {
    rowIndex: number | null;
    rowPinned?: string | null;
    column: Column | string;
  }): CellPoint | null {
    if (position.rowIndex === null) return null;
    const colId =
      typeof position.column === 'string' ? position.column : position.column.getColId();
    const column = this.columns().findIndex((candidate) => candidate.getColId() === colId);
    if (column < 0) return null;
    const row = position.rowPinned ? position.rowIndex : this.pinnedCount() + position.rowIndex;
    return { row, column };
  }

  focused(): CellPoint | null {
    const cell: CellPosition | null = this.api.getFocusedCell();
    return cell ? this.pointOf(cell) : null;
  }

  /** The position the grid's own API takes for a cell. */
  position(point: CellPoint): { rowIndex: number; rowPinned: 'top' | null; column: Column } | null {
    const column = this.columns()[point.column];
    if (!column) return null;
    const pinned = this.pinnedCount();
    return point.row < pinned
      ? { rowIndex: point.row, rowPinned: 'top', column }
      : { rowIndex: point.row - pinned, rowPinned: null, column };
  }

  /** Moves the keyboard focus to the cell, scrolling it into view. */
  focus(point: CellPoint): void {
    const position = this.position(point);
    if (!position) return;
    if (!position.rowPinned) this.api.ensureIndexVisible(position.rowIndex);
    this.api.ensureColumnVisible(position.column);
    this.api.setFocusedCell(position.rowIndex, position.column, position.rowPinned);
  }
}
