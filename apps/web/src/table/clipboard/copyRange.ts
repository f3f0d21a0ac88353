import { cellsOf, type RangeBounds } from './cellRange';
import type { GridCells } from './gridCells';
import { writeHtmlTable } from './htmlTable';
import { writeTsv } from './tsv';

/**
 * The range's values as stored (a NULL as an empty cell), as TSV and an HTML table: pasted back
 * here or into a spreadsheet they are the same values. Rows not loaded yet copy as empty.
 */
export function copyRange(cells: GridCells, bounds: RangeBounds): { text: string; html: string } {
  const values = cellsOf(bounds).map((row) =>
    row.map((point) => {
      const cell = cells.cell(point);
      return cell?.node?.data?.values[cell.tableColumn.name] ?? '';
    }),
  );
  return { text: writeTsv(values), html: writeHtmlTable(values) };
}
