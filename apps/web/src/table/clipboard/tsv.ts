import Papa from 'papaparse';

/**
 * Cells copied from Excel, Google Sheets or LibreOffice: rows end with `\r\n` or `\n`, cells
 * are split by tabs, and a cell holding a tab, a line break or a quote comes in double quotes
 * (quotes inside doubled). Excel ends the block with a line break, which is no row of its own.
 */
export function parseTsv(text: string): string[][] {
  if (text === '') return [];
  const { data } = Papa.parse<string[]>(text, {
    delimiter: '\t',
    newline: text.includes('\r\n') ? '\r\n' : '\n',
    quoteChar: '"',
    skipEmptyLines: false,
  });
  const rows = data;
  const last = rows.at(-1);
  if (rows.length > 1 && last?.length === 1 && last[0] === '') rows.pop();
  return rows;
}

/** Cells as Excel writes them to the clipboard, so that Excel and the grid read them back alike. */
export function writeTsv(rows: readonly (readonly string[])[]): string {
  if (rows.length === 0) return '';
  const text = Papa.unparse(rows as string[][], {
    delimiter: '\t',
    newline: '\r\n',
    quotes: (value: unknown) => typeof value === 'string' && /[\t\r\n"]/.test(value),
  });
  return `${text}\r\n`;
}
