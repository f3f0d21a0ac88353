import type { MasterTable, TableColumn } from '../../tableColumns';
import type { FileRow } from '../fileRow';
import { badFile, tooLarge } from '../importFileErrors';
import type { ImportLimits } from '../importLimits';
import { type CellContext, xlsxCellText } from './xlsxCellText';
import { readDateStyles } from './xlsxDateStyles';
import { readSharedStrings } from './xlsxSharedStrings';
import { readXlsxWorkbook } from './xlsxWorkbook';
import type { XlsxZip } from './xlsxZip';
import { readXmlPart } from './xmlPart';

/** Excel's last column, XFD. */
const MAX_SHEET_COLUMNS = 16_384;

/** The column index (0 for A) of a cell reference such as `XFD1`; -1 when it has none. */
function columnOf(reference: string): number {
  let column = 0;
  let index = 0;
  for (; index < reference.length; index++) {
    const code = reference.charCodeAt(index);
    if (code < 65 || code > 90) break;
    column = column * 26 + (code - 64);
  }
  return index === 0 || column > MAX_SHEET_COLUMNS ? -1 : column - 1;
}

const columnName = (index: number): string =>
  (index >= 26 ? columnName(Math.floor(index / 26) - 1) : '') +
  String.fromCharCode(65 + (index % 26));

/**
 * The first sheet's rows, read as the sheet inflates and handed on a chunk's worth at a time.
 * The header (the first row with a value) goes to `onHeader` as soon as it is read, before
 * any other row; a header cell right of the table's own number of columns, or a value right
 * of the header's last column, ends the reading at once (a row is never widened to its far
 * cell). Rows without a value are skipped, as a CSV's empty lines are.
 */
export async function* readXlsxRows(
  zip: XlsxZip,
  table: MasterTable,
  limits: ImportLimits,
  onHeader: (columns: string[]) => void,
): AsyncGenerator<FileRow[]> {
  const workbook = await readXlsxWorkbook(zip, limits);
  const context: CellContext = {
    sharedStrings: await readSharedStrings(zip, workbook.sharedStringsPath, limits),
    dateStyles: await readDateStyles(zip, workbook.stylesPath, limits),
    date1904: workbook.date1904,
  };
  let header: string[] | undefined;
  let kinds: (TableColumn | undefined)[] = [];
  let batch: FileRow[] = [];
  let rowCount = 0;
  let line = 0;
  let cells: (string | null)[] = [];
  let hasValue = false;
  let nextColumn = 0;
  let cell: { column: number; type: string; style: number; raw: string | undefined } | undefined;
  let collecting = false;
  let inline = false;
  let phonetic = 0;
  const rows = readXmlPart(zip, workbook.sheetPath, limits, {
    open(name, attributes) {
      if (name === 'row') {
        const number = attributes.r ? Number(attributes.r) : line + 1;
        if (!(number > line))
          throw badFile(`Row ${attributes.r} of the sheet comes after row ${line}.`);
        line = number;
        cells = header ? new Array<string | null>(header.length).fill(null) : [];
        hasValue = false;
        nextColumn = 0;
      } else if (name === 'c') {
        const column = attributes.r ? columnOf(attributes.r) : nextColumn;
        if (column < 0) throw badFile(`Cell ${attributes.r} of the sheet has no valid column.`);
        cell = {
          column,
          type: attributes.t ?? 'n',
          style: Number(attributes.s ?? 0),
          raw: undefined,
        };
      } else if (cell && name === 'v') {
        collecting = true;
        cell.raw ??= '';
      } else if (cell && name === 'is') inline = true;
      else if (name === 'rPh') phonetic++;
      else if (cell && inline && name === 't' && phonetic === 0) {
        collecting = true;
        cell.raw ??= '';
      }
    },
    text(text) {
      if (collecting && cell) cell.raw += text;
    },
    close(name) {
      if (name === 'v' || name === 't') collecting = false;
      else if (name === 'is') inline = false;
      else if (name === 'rPh') phonetic--;
      else if (name === 'c' && cell) {
        const { column, type, raw, style } = cell;
        cell = undefined;
        nextColumn = column + 1;
        const text =
          raw === undefined ? null : xlsxCellText(type, raw, style, kinds[column], context);
        if (text === null) return;
        const width = header ? header.length : table.columns.length;
        if (column >= width) {
          throw badFile(
            header
              ? `Row ${line} has a value in column ${columnName(column)}, right of the header's last column ${columnName(width - 1)}.`
              : `The header goes on to column ${columnName(column)}, but ${table.name} has ${width} columns.`,
          );
        }
        cells[column] = text;
        hasValue = true;
      } else if (name === 'row' && hasValue) {
        if (!header) {
          header = Array.from(cells, (name) => name ?? '');
          onHeader(header);
          kinds = header.map((name) => table.columns.find((c) => c.name === name));
          return;
        }
        rowCount++;
        if (rowCount > limits.maxRows) {
          throw tooLarge(`more than ${limits.maxRows.toLocaleString('en')} rows`, limits);
        }
        batch.push({ line, cells });
      }
    },
  });
  for await (const _ of rows) {
    if (batch.length > 0) {
      yield batch;
      batch = [];
    }
  }
  if (!header) throw badFile('The file is empty: it needs a header row of column names.');
  if (batch.length > 0) yield batch;
}
