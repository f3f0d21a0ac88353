import { Readable } from 'node:stream';
import type { MasterTable } from '../tableColumns';
import type { FileRow } from './fileRow';
import { badFile } from './importFileErrors';
import type { ImportLimits } from './importLimits';
import { readCsvRows } from './readCsvRows';
import { readXlsxRows } from './xlsx/readXlsxRows';
import { spoolToUnnamedFile } from './xlsx/spooledFile';
import { openXlsxZip } from './xlsx/xlsxZip';

export type ImportFormat = 'csv' | 'xlsx';

/** A file as it arrives (an upload), or whole (a GraphQL argument). */
export type ImportContent = Readable | Buffer;

/**
 * Reads a CSV or XLSX file as the export writes it (and as people edit it in a spreadsheet):
 * a header row of column names, then one row per table row, handed on in batches as they are
 * read. XLSX: the first sheet; numbers, booleans and dates become text as Postgres reads them.
 * The header goes to `onHeader` (which checks it) before any row is read, and every limit is
 * checked as the file is read.
 */
export async function* readImportRows(
  table: MasterTable,
  format: ImportFormat,
  content: ImportContent,
  limits: ImportLimits,
  onHeader: (columns: string[]) => void,
): AsyncGenerator<FileRow[]> {
  if (format === 'csv') {
    yield* readCsvRows(
      Buffer.isBuffer(content) ? Readable.from([content]) : content,
      table,
      limits,
      onHeader,
    );
    return;
  }
  const zip = await openXlsxZip(
    Buffer.isBuffer(content) ? content : await spoolToUnnamedFile(content),
    limits,
  );
  try {
    yield* readXlsxRows(zip, table, limits, onHeader);
  } finally {
    zip.close();
  }
}

/**
 * The header (`columns`, after any mapping: null for a column left out) may name only the
 * table's own columns, each once, and must have its key. A header naming columns the table
 * lacks says which, with the file's own header, so that a client can offer a mapping.
 */
export function checkHeader(table: MasterTable, mapped: (string | null)[], header = mapped) {
  const columns = mapped.filter((name): name is string => name !== null);
  const unknown = columns.filter((name) => !table.columns.some((c) => c.name === name));
  if (unknown.length > 0) {
    throw badFile(
      `The header names columns ${table.name} does not have: ${unknown
        .slice(0, 10)
        .map((n) => JSON.stringify(n))
        .join(
          ', ',
        )}${unknown.length > 10 ? ', …' : ''}. The first row must hold column names, as an export writes them, or map the file's columns to the table's.`,
      {
        fileColumns: header,
        unknownColumns: unknown,
        tableColumns: table.columns.map((c) => c.name),
      },
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
