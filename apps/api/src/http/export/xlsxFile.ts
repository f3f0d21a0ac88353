import { finished } from 'node:stream/promises';
import type { MasterTable, TableColumn } from '@tablelock/master-data';
import type { RowFileFormat } from './rowFile';

type CellValue = string | number | boolean | Date | null;

// Excel keeps 15 significant digits: longer numbers stay text rather than lose digits.
const EXACT_IN_EXCEL = /^-?(?=(?:\D*\d){1,15}\D*$)\d+(?:\.\d+)?$/;

/** A value as Excel should hold it: numbers, dates and booleans as such, the rest as text. */
function cellValue(column: TableColumn, value: string | null): CellValue {
  if (value === null) return null;
  switch (column.kind) {
    case 'integer':
    case 'decimal':
      return EXACT_IN_EXCEL.test(value) ? Number(value) : value;
    case 'boolean':
      return value === 'true';
    case 'date': {
      const [year, month, day] = value.split('-').map(Number);
      return year && month && day && year > 1900 ? new Date(Date.UTC(year, month - 1, day)) : value;
    }
    default:
      return value;
  }
}

/** Excel's rules for a sheet name: at most 31 characters, none of []:*?/\ . */
const sheetName = (table: MasterTable) =>
  table.name.replace(/[[\]:*?/\\]/g, '_').slice(0, 31) || 'rows';

/**
 * An Excel workbook of one sheet, streamed: each row is written to the zip as it comes, and
 * strings are stored inline (no shared-string table held in memory). Without a style table,
 * which doubles the time per cell: dates still get Excel's short date format (the reader's
 * locale's), numbers show as General.
 */
export const xlsxFile: RowFileFormat = {
  extension: 'xlsx',
  contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  async start(out, table) {
    // ExcelJS takes a quarter of a second of CPU to load: with the first XLSX file, not at
    // every start of the API.
    const { default: ExcelJS } = await import('exceljs');
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: out,
      useStyles: false,
      useSharedStrings: false,
    });
    const sheet = workbook.addWorksheet(sheetName(table), {
      views: [{ state: 'frozen', ySplit: 1 }],
    });
    sheet.columns = table.columns.map((column) => ({
      header: column.name,
      key: column.name,
      width: Math.min(Math.max(column.name.length + 2, 12), 40),
    }));
    return {
      write(rows) {
        for (const row of rows) {
          sheet
            .addRow(table.columns.map((column) => cellValue(column, row[column.name] ?? null)))
            .commit();
        }
      },
      async end() {
        sheet.commit();
        // The commit waits for the stream to finish, which a closed connection never does.
        await Promise.all([workbook.commit(), finished(out)]);
      },
    };
  },
};
