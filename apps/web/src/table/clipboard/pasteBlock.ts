import { normalizeInput } from '../changes/normalizeInput';
import type { PendingChanges } from '../changes/PendingChanges';
import type { RangeBounds } from './cellRange';
import { pasteWrites } from './cellWrites';
import type { GridCells } from './gridCells';

export interface PasteOutcome {
  /** The cells written to, as a range to select. */
  pasted: RangeBounds | null;
  /** Values that found no cell they may change (a key, a deleted row, past the last column). */
  skipped: number;
}

/**
 * Pastes a block into the grid as one undo step. Every value goes through the same
 * normalization as typing and is then checked like a typed one: a bad value is kept as pasted
 * and marked, never changed into a valid one. Past the last row new rows are added: below the
 * new rows when pasting into them, else at the end of the table (the new rows on top).
 */
export function pasteBlock(
  cells: GridCells,
  pending: PendingChanges,
  target: RangeBounds,
  block: readonly (readonly string[])[],
): PasteOutcome {
  const columns = cells.columns();
  const writes = pasteWrites(target, block, columns.length);
  if (writes.length === 0) return { pasted: null, skipped: 0 };
  const single = block.length === 1 && block[0]?.length === 1;
  const blockCells = single ? writes.length : block.reduce((sum, row) => sum + row.length, 0);
  let skipped = blockCells - writes.length;
  const pinned = cells.pinnedCount();
  const edge = target.top < pinned ? pinned : cells.rowCount();
  const lastRow = Math.max(...writes.map((write) => write.at.row));
  const lastColumn = Math.max(...writes.map((write) => write.at.column));

  pending.step(() => {
    const added = lastRow >= edge ? pending.appendRows(lastRow - edge + 1) : [];
    for (const { at, text } of writes) {
      const cell = cells.cell({ row: Math.min(at.row, edge - 1), column: at.column });
      if (!cell) {
        skipped++;
        continue;
      }
      const node = at.row < edge ? cell.node : undefined;
      const row = at.row < edge ? node?.data : added[at.row - edge];
      const editable = node ? cell.column.isCellEditable(node) : row !== undefined;
      if (!row || !editable) {
        skipped++;
        continue;
      }
      const { name, kind, nullable } = cell.tableColumn;
      pending.setValue(row, name, normalizeInput(kind, nullable, text));
    }
  });
  return {
    pasted: {
      top: target.top,
      bottom: Math.min(lastRow, edge - 1),
      left: target.left,
      right: lastColumn,
    },
    skipped,
  };
}
