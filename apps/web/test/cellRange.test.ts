import { describe, expect, it } from 'vitest';
import {
  boundsOf,
  cellsOf,
  extendBy,
  inBounds,
  singleCell,
} from '../src/table/clipboard/cellRange';
import { fillCopies, fillDownCopies, pasteWrites } from '../src/table/clipboard/cellWrites';

describe('cell ranges', () => {
  it('bound a range whichever way it was dragged', () => {
    const bounds = boundsOf({ anchor: { row: 5, column: 3 }, focus: { row: 2, column: 1 } });
    expect(bounds).toEqual({ top: 2, bottom: 5, left: 1, right: 3 });
    expect(inBounds(bounds, { row: 2, column: 3 })).toBe(true);
    expect(inBounds(bounds, { row: 6, column: 3 })).toBe(false);
  });

  it('grow with shift+arrows from the anchor, never past the edge', () => {
    const size = { rows: 3, columns: 2 };
    const range = extendBy(singleCell({ row: 1, column: 1 }), 1, 1, size);
    expect(range).toEqual({ anchor: { row: 1, column: 1 }, focus: { row: 2, column: 1 } });
    expect(extendBy(range, -5, -5, size).focus).toEqual({ row: 0, column: 0 });
  });

  it('list their cells row by row', () => {
    expect(cellsOf({ top: 0, bottom: 1, left: 2, right: 3 })).toEqual([
      [
        { row: 0, column: 2 },
        { row: 0, column: 3 },
      ],
      [
        { row: 1, column: 2 },
        { row: 1, column: 3 },
      ],
    ]);
  });
});

describe('pasteWrites', () => {
  it('lays a block out from the top left of the selection, cut at the last column', () => {
    const writes = pasteWrites({ top: 4, bottom: 4, left: 1, right: 1 }, [['a', 'b', 'c']], 3);
    expect(writes).toEqual([
      { at: { row: 4, column: 1 }, text: 'a' },
      { at: { row: 4, column: 2 }, text: 'b' },
    ]);
  });

  it('fills a whole selection with one pasted value', () => {
    const writes = pasteWrites({ top: 0, bottom: 1, left: 0, right: 1 }, [['x']], 5);
    expect(writes.map((write) => write.at)).toEqual([
      { row: 0, column: 0 },
      { row: 0, column: 1 },
      { row: 1, column: 0 },
      { row: 1, column: 1 },
    ]);
  });
});

describe('fill', () => {
  it('copies the first row of the selection down into the others', () => {
    expect(fillDownCopies({ top: 2, bottom: 3, left: 0, right: 1 })).toEqual([
      { from: { row: 2, column: 0 }, to: { row: 3, column: 0 } },
      { from: { row: 2, column: 1 }, to: { row: 3, column: 1 } },
    ]);
  });

  it('copies the row above into a one-row selection, and nothing into the first row', () => {
    expect(fillDownCopies({ top: 2, bottom: 2, left: 1, right: 1 })).toEqual([
      { from: { row: 1, column: 1 }, to: { row: 2, column: 1 } },
    ]);
    expect(fillDownCopies({ top: 0, bottom: 0, left: 0, right: 0 })).toEqual([]);
  });

  it('repeats the source rows in order down the handle, and up above it', () => {
    const source = { top: 1, bottom: 2, left: 0, right: 0 };
    const down = fillCopies(source, { top: 1, bottom: 5, left: 0, right: 0 });
    expect(down.map((copy) => [copy.from.row, copy.to.row])).toEqual([
      [1, 3],
      [2, 4],
      [1, 5],
    ]);
    const up = fillCopies(source, { top: 0, bottom: 2, left: 0, right: 0 });
    expect(up.map((copy) => [copy.from.row, copy.to.row])).toEqual([[2, 0]]);
  });
});
