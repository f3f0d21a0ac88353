import { finished } from 'node:stream/promises';
import { guardFormula, type RowValues } from '@tablelock/master-data';
import { stringify } from 'csv-stringify/sync';
import type { RowFileFormat } from './rowFile';

// Excel reads a CSV as the machine's legacy code page (Shift_JIS in Japan) unless it starts
// with a byte order mark.
export const UTF8_BOM = '\uFEFF';

const CSV_OPTIONS = {
  // RFC 4180: CRLF between records; quotes around fields with commas, quotes or line breaks.
  record_delimiter: 'windows',
  // An empty string is "" and NULL is nothing at all, as Postgres's COPY reads them back. A
  // lone CR or LF is a line break to a spreadsheet too, which csv-stringify quotes only as CRLF:
  // unquoted, the text after it would start a row of its own, and could be a formula.
  quoted_match: /^$|[\r\n]/,
} as const;

/** Records as CSV text, as every CSV file of the app writes them. */
export const csvRecords = (records: (string | null)[][]): string => stringify(records, CSV_OPTIONS);

/** RFC 4180 CSV in UTF-8 with a byte order mark, so that Excel shows Japanese text as it is. */
export const csvFile: RowFileFormat = {
  extension: 'csv',
  contentType: 'text/csv; charset=utf-8',
  async start(out, table) {
    out.write(UTF8_BOM + csvRecords([table.columns.map((column) => column.name)]));
    return {
      write(rows: RowValues[]) {
        const records = rows.map((row) =>
          table.columns.map((column) => guardFormula(column, row[column.name] ?? null)),
        );
        out.write(csvRecords(records));
      },
      async end() {
        out.end();
        await finished(out);
      },
    };
  },
};
