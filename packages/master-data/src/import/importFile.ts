import { Readable } from 'node:stream';
import type { MasterTable } from '../tableColumns';
import { badFile, tooLarge } from './importFileErrors';
import { IMPORT_LIMITS, type ImportLimits } from './importLimits';
import { readCsvRows } from './readCsvRows';
import { readXlsxRows } from './xlsx/readXlsxRows';
import { openXlsxZip } from './xlsx/xlsxZip';

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

/**
 * Reads a CSV or XLSX file as the export writes it (and as people edit it in a spreadsheet):
 * a header row of column names, then one row per table row. XLSX: the first sheet; numbers,
 * booleans and dates become text as Postgres reads them. The header is checked against the
 * table before any row is read, and every limit as the file is read.
 */
export async function readImportFile(
  table: MasterTable,
  format: ImportFormat,
  content: Buffer,
  limits: ImportLimits = IMPORT_LIMITS,
): Promise<ImportFile> {
  if (content.length > limits.maxBytes) {
    throw tooLarge(`${(content.length / 1024 / 1024).toFixed(1)} MB`, limits);
  }
  let columns: string[] = [];
  const onHeader = (header: string[]) => {
    checkHeader(table, header);
    columns = header;
  };
  const rows: ImportFile['rows'] = [];
  if (format === 'csv') {
    for await (const batch of readCsvRows(Readable.from([content]), table, limits, onHeader)) {
      rows.push(...batch);
    }
  } else {
    const zip = await openXlsxZip(content, limits);
    try {
      for await (const batch of readXlsxRows(zip, table, limits, onHeader)) rows.push(...batch);
    } finally {
      zip.close();
    }
  }
  return { columns, rows };
}

/** The header may name only the table's own columns, each once, and must have its key. */
export function checkHeader(table: MasterTable, columns: string[]) {
  const unknown = columns.filter((name) => !table.columns.some((c) => c.name === name));
  if (unknown.length > 0) {
    throw badFile(
      `The header names columns ${table.name} does not have: ${unknown
        .slice(0, 10)
        .map((n) => JSON.stringify(n))
        .join(
          ', ',
        )}${unknown.length > 10 ? ', …' : ''}. The first row must hold column names, as an export writes them.`,
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
