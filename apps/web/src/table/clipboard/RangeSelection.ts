import type { CellClassParams, CellClassRules } from 'ag-grid-community';
import type { GridRow } from '../changes/gridRow';
import {
  boundsOf,
  type CellPoint,
  type CellRange,
  inBounds,
  isSingleCell,
  type RangeBounds,
} from './cellRange';
import type { GridCells } from './gridCells';

/**
 * The selected rectangle of cells and, while the fill handle is dragged, the cells it will
 * fill. Kept outside React: the grid asks for a cell's classes whenever it paints one.
 */
export class RangeSelection {
  range: CellRange | null = null;
  fillTarget: RangeBounds | null = null;
  cells: GridCells | null = null;
  /** Whether the fill handle shows (only while the user may edit). */
  fillable = false;

  bounds(): RangeBounds | null {
    return this.range && boundsOf(this.range);
  }

  /** The classes that draw the range and its fill handle on the cells. */
  readonly classRules: CellClassRules<GridRow> = {
    'cell-range': (params) => this.is(params, (bounds) => !isSingleCell(bounds)),
    'cell-range-top': (params) => this.is(params, (bounds, { row }) => row === bounds.top),
    'cell-range-bottom': (params) => this.is(params, (bounds, { row }) => row === bounds.bottom),
    'cell-range-left': (params) => this.is(params, (bounds, { column }) => column === bounds.left),
    'cell-range-right': (params) =>
      this.is(params, (bounds, { column }) => column === bounds.right),
    'cell-range-handle': (params) =>
      this.fillable &&
      this.is(
        params,
        (bounds, { row, column }) => row === bounds.bottom && column === bounds.right,
      ),
    'cell-fill-target': (params) => {
      const point = this.fillTarget && this.pointOf(params);
      return point !== null && this.fillTarget !== null && inBounds(this.fillTarget, point);
    },
  };

  private is(
    params: CellClassParams<GridRow>,
    test: (bounds: RangeBounds, point: CellPoint) => boolean,
  ): boolean {
    const bounds = this.bounds();
    const point = bounds && this.pointOf(params);
    return bounds !== null && point !== null && inBounds(bounds, point) && test(bounds, point);
  }

  private pointOf(params: CellClassParams<GridRow>): CellPoint | null {
    if (!this.cells || params.rowIndex === null) return null;
    return this.cells.pointOf({
      rowIndex: params.rowIndex,
      rowPinned: params.node.rowPinned ?? null,
      column: params.column,
    });
  }
}
