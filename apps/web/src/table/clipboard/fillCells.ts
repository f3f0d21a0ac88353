import type { PendingChanges } from '../changes/PendingChanges';
import type { CellCopy } from './cellWrites';
import type { GridCells } from './gridCells';

/**
 * Copies values between cells as one undo step (fill down, the fill handle), as stored: no
 * parsing, so nothing can change on the way. Returns how many target cells may not change.
 */
export function fillCells(
  cells: GridCells,
  pending: PendingChanges,
  copies: readonly CellCopy[],
): number {
  let skipped = 0;
  pending.step(() => {
    for (const { from, to } of copies) {
      const source = cells.cell(from);
      const target = cells.cell(to);
      const row = target?.node?.data;
      if (
        !source?.node?.data ||
        !target?.node ||
        !row ||
        !target.column.isCellEditable(target.node)
      ) {
        skipped++;
        continue;
      }
      const name = target.tableColumn.name;
      pending.setValue(row, name, source.node.data.values[name] ?? null);
    }
  });
  return skipped;
}
