import { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { unguardFormula } from '../formulaText';
import { MasterDataError } from '../masterDataError';
import type { MasterTable, TableColumn } from '../tableColumns';
import { MAX_IMPORT_BYTES, MAX_IMPORT_ROWS } from './importLimits';

export type ImportFormat = 'csv' | 'xlsx';

/** One data row of a file, its cells in header order (null for an empty cell: NULL). */
export interface FileRow {
  /** The row's number as a spreadsheet shows it: the header is row 1. */
  line: number;
  cells: (string | null)[];
}

export interface ImportFile {
  /** The header: column names, in the file's order. */
  columns: string[];
  rows: FileRow[];
}

const tooLarge = (what: string) =>
  new MasterDataError(
    'IMPORT_TOO_LARGE',
    `The file is too large: ${what}. An import takes at most ${MAX_IMPORT_ROWS.toLocaleString('en')} rows and ${MAX_IMPORT_BYTES / 1024 / 1024} MB; split it.`,
    { maxRows: MAX_IMPORT_ROWS, maxBytes: MAX_IMPORT_BYTES },
  );

const badFile = (why: string) => new MasterDataError('IMPORT_BAD_FILE', why);

/**
 * Reads a CSV or XLSX file as the export writes it (and as people edit it in a spreadsheet):
 * a header row of column names, then one row per table row. CSV: UTF-8 with or without a byte
 * order mark, an empty field is NULL and `""` an empty string, and the apostrophe the export
 * puts before formula-like text is taken off. XLSX: the first sheet; numbers, booleans and dates
 * become text as Postgres reads them.
 */
export async function readImportFile(
  table: MasterTable,
  format: ImportFormat,
  content: Buffer,
): Promise<ImportFile> {
  if (content.length > MAX_IMPORT_BYTES) {
    throw tooLarge(`${(content.length / 1024 / 1024).toFixed(1)} MB`);
  }
  const file = format === 'csv' ? readCsv(content) : await readXlsx(table, content);
  checkHeader(table, file.columns);
  const columns = file.columns.map((name) => table.columns.find((c) => c.name === name));
  for (const row of file.rows) {
    row.cells = row.cells.map((cell, index) => {
      const column = columns[index] as TableColumn;
      return format === 'csv' ? unguardFormula(column, cell) : cell;
    });
  }
  return file;
}

function readCsv(content: Buffer): ImportFile {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(content);
  } catch {
    throw badFile('The CSV file is not UTF-8 text. Save it as "CSV UTF-8" and try again.');
  }
  let records: (string | null)[][];
  try {
    records = parse(text, {
      bom: true,
      skip_empty_lines: true,
      // A quoted empty field is an empty string; an unquoted one is NULL (as the export writes).
      cast: (value, context) => (value === '' && !context.quoting ? null : value),
      // One more than allowed, to tell a file that is too long without reading all of it.
      to: MAX_IMPORT_ROWS + 2,
    }) as (string | null)[][];
  } catch (error) {
    if (error instanceof CsvError) throw badFile(`The CSV file does not parse: ${error.message}`);
    throw error;
  }
  const [header, ...rows] = records;
  if (!header) throw badFile('The file is empty: it needs a header row of column names.');
  if (rows.length > MAX_IMPORT_ROWS) throw tooLarge(`more than ${MAX_IMPORT_ROWS} rows`);
  return {
    columns: header.map((name) => name ?? ''),
    rows: rows.map((cells, index) => ({ line: index + 2, cells })),
  };
}

async function readXlsx(table: MasterTable, content: Buffer): Promise<ImportFile> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([content]), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    // Styles tell dates from numbers.
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  let columns: string[] | undefined;
  const rows: FileRow[] = [];
  try {
    for await (const sheet of reader) {
      for await (const row of sheet) {
        const values = (row.values as ExcelJS.CellValue[]).slice(1);
        if (!columns) {
          columns = values.map((value) => cellText(value, undefined) ?? '');
          continue;
        }
        if (rows.length === MAX_IMPORT_ROWS) throw tooLarge(`more than ${MAX_IMPORT_ROWS} rows`);
        const kinds = columns.map((name) => table.columns.find((c) => c.name === name));
        rows.push({
          line: row.number,
          cells: columns.map((_, index) => cellText(values[index], kinds[index])),
        });
      }
      break;
    }
  } catch (error) {
    if (error instanceof MasterDataError) throw error;
    throw badFile(`The XLSX file cannot be read: ${(error as Error).message}`);
  }
  if (!columns) throw badFile('The file is empty: it needs a header row of column names.');
  return { columns, rows };
}

/** A cell's value as text, as Postgres reads it for the column. */
function cellText(value: ExcelJS.CellValue, column: TableColumn | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) {
    return column?.kind === 'date' ? value.toISOString().slice(0, 10) : value.toISOString();
  }
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((part) => part.text).join('');
    if ('result' in value) return cellText(value.result as ExcelJS.CellValue, column);
    if ('text' in value) return String(value.text);
    if ('error' in value) return String(value.error);
    return null;
  }
  return String(value);
}

function checkHeader(table: MasterTable, columns: string[]) {
  const unknown = columns.filter((name) => !table.columns.some((c) => c.name === name));
  if (unknown.length > 0) {
    throw badFile(
      `The header names columns ${table.name} does not have: ${unknown.map((n) => JSON.stringify(n)).join(', ')}. The first row must hold column names, as an export writes them.`,
    );
  }
  const repeated = columns.filter((name, index) => columns.indexOf(name) !== index);
  if (repeated.length > 0) {
    throw badFile(`The header names ${[...new Set(repeated)].join(', ')} more than once.`);
  }
  const missingKey = table.primaryKey.filter((column) => !columns.includes(column.name));
  if (missingKey.length > 0) {
    throw badFile(
      `The file has no ${missingKey.map((c) => c.name).join(', ')} column: rows are matched by the primary key, so it must be there.`,
    );
  }
}
