/**
 * A cell by its place on screen: `row` counts the new rows on top first, then the stored rows
 * in the view's order; `column` counts the data columns as displayed.
 */
export interface CellPoint {
  row: number;
  column: number;
}

/** A rectangle of cells: where the selection started (`anchor`) and where it reaches now. */
export interface CellRange {
  anchor: CellPoint;
  focus: CellPoint;
}

export interface RangeBounds {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

export const singleCell = (point: CellPoint): CellRange => ({ anchor: point, focus: point });

export function boundsOf({ anchor, focus }: CellRange): RangeBounds {
  return {
    top: Math.min(anchor.row, focus.row),
    bottom: Math.max(anchor.row, focus.row),
    left: Math.min(anchor.column, focus.column),
    right: Math.max(anchor.column, focus.column),
  };
}

export const inBounds = (bounds: RangeBounds, { row, column }: CellPoint): boolean =>
  row >= bounds.top && row <= bounds.bottom && column >= bounds.left && column <= bounds.right;

export const isSingleCell = (bounds: RangeBounds): boolean =>
  bounds.top === bounds.bottom && bounds.left === bounds.right;

/** Shift+arrow: the far corner moves one cell, never off the grid; the anchor stays. */
export function extendBy(
  range: CellRange,
  rows: number,
  columns: number,
  size: { rows: number; columns: number },
): CellRange {
  const clamp = (value: number, count: number) => Math.max(0, Math.min(count - 1, value));
  return {
    anchor: range.anchor,
    focus: {
      row: clamp(range.focus.row + rows, size.rows),
      column: clamp(range.focus.column + columns, size.columns),
    },
  };
}

/** Every cell of the bounds, row by row. */
export function cellsOf(bounds: RangeBounds): CellPoint[][] {
  const rows: CellPoint[][] = [];
  for (let row = bounds.top; row <= bounds.bottom; row++) {
    const cells: CellPoint[] = [];
    for (let column = bounds.left; column <= bounds.right; column++) cells.push({ row, column });
    rows.push(cells);
  }
  return rows;
}
