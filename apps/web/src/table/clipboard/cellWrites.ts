import type { CellPoint, RangeBounds } from './cellRange';

/** A value to put into a cell, as text the way the user would type it. */
export interface CellWrite {
  at: CellPoint;
  text: string;
}

/** A copy from one cell to another, keeping the value as stored. */
export interface CellCopy {
  from: CellPoint;
  to: CellPoint;
}

/**
 * Where a pasted block goes: from the top left of the selection, right and down, cut at the
 * last column. One value pasted over a selection fills all of it, as in a spreadsheet.
 */
export function pasteWrites(
  target: RangeBounds,
  block: readonly (readonly string[])[],
  columnCount: number,
): CellWrite[] {
  const only = block.length === 1 && block[0]?.length === 1 ? block[0][0] : undefined;
  const writes: CellWrite[] = [];
  if (only !== undefined) {
    for (let row = target.top; row <= target.bottom; row++) {
      for (let column = target.left; column <= target.right; column++) {
        writes.push({ at: { row, column }, text: only });
      }
    }
    return writes;
  }
  block.forEach((cells, rowOffset) => {
    cells.forEach((text, columnOffset) => {
      const column = target.left + columnOffset;
      if (column < columnCount) writes.push({ at: { row: target.top + rowOffset, column }, text });
    });
  });
  return writes;
}

/**
 * Fill down (Ctrl+D): the selection's first row copied into the rows below it; a selection of
 * one row takes the row above it.
 */
export function fillDownCopies(selection: RangeBounds): CellCopy[] {
  if (selection.top === selection.bottom) {
    if (selection.top === 0) return [];
    return fillCopies(
      { ...selection, top: selection.top - 1, bottom: selection.top - 1 },
      selection,
    );
  }
  return fillCopies(
    { ...selection, bottom: selection.top },
    { ...selection, top: selection.top + 1 },
  );
}

/**
 * The fill handle: the source rows repeated, in order, down the target rows (or up, above the
 * source, ending with its first row), in the source's columns.
 */
export function fillCopies(source: RangeBounds, target: RangeBounds): CellCopy[] {
  const height = source.bottom - source.top + 1;
  const copies: CellCopy[] = [];
  for (let row = target.top; row <= target.bottom; row++) {
    if (row >= source.top && row <= source.bottom) continue;
    const offset = (((row - source.top) % height) + height) % height;
    for (let column = source.left; column <= source.right; column++) {
      copies.push({ from: { row: source.top + offset, column }, to: { row, column } });
    }
  }
  return copies;
}
