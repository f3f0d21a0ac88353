import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CsvError, parse } from 'csv-parse';
import { unguardFormula } from '../formulaText';
import type { MasterTable, TableColumn } from '../tableColumns';
import type { FileRow } from './fileRow';
import { badFile, tooLarge } from './importFileErrors';
import type { ImportLimits } from './importLimits';

/** Rows handed on at a time. */
const BATCH_ROWS = 1000;
/** The longest record (its characters), so that a file without line ends is not held whole. */
const MAX_RECORD_CHARS = 4 * 1024 * 1024;

async function* utf8Text(chunks: AsyncIterable<Buffer>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for await (const chunk of chunks) yield decoder.decode(chunk, { stream: true });
    const tail = decoder.decode();
    if (tail) yield tail;
  } catch (error) {
    if (error instanceof TypeError) {
      throw badFile('The CSV file is not UTF-8 text. Save it as "CSV UTF-8" and try again.');
    }
    throw error;
  }
}

/**
 * An empty field is NULL unless it was quoted (`""`, an empty string), as the export writes them.
 * csv-parse's `cast` could tell them apart, but builds a context object for every field of the
 * file (a 100,000-row import spent 4 of its 9 CPU seconds there); this looks only at records
 * with an empty field, in the text csv-parse already checked: a field starts after a comma
 * outside quotes, and an empty one that starts with a quote was quoted.
 */
function nullForUnquotedEmpty(record: (string | null)[], raw: string): void {
  let field = 0;
  let quoted = false;
  let fieldStart = 0;
  for (let at = 0; at <= raw.length && field < record.length; at++) {
    const char = raw[at];
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === ',' || at === raw.length || char === '\r' || char === '\n')) {
      if (record[field] === '' && raw[fieldStart] !== '"') record[field] = null;
      field++;
      fieldStart = at + 1;
    }
  }
}

/**
 * A CSV file's rows as the export writes them (and as people edit them in a spreadsheet),
 * parsed as the file arrives: UTF-8 with or without a byte order mark, an empty field is NULL
 * and `""` an empty string, and the apostrophe the export puts before formula-like text is
 * taken off. The header goes to `onHeader` before any row is read; a row of another width
 * than the header does not parse.
 */
export async function* readCsvRows(
  source: Readable,
  table: MasterTable,
  limits: ImportLimits,
  onHeader: (columns: string[]) => void,
): AsyncGenerator<FileRow[]> {
  const parser = parse({
    bom: true,
    skip_empty_lines: true,
    max_record_size: MAX_RECORD_CHARS,
    // Each record with its text, where a quoted empty field differs from an unquoted one.
    raw: true,
  });
  const feeding = pipeline(source, utf8Text, parser);
  // Its failure reaches the loop below through the parser, which pipeline destroys with it.
  feeding.catch(() => {});
  let columns: (TableColumn | undefined)[] | undefined;
  let batch: FileRow[] = [];
  let line = 1;
  try {
    for await (const { record, raw } of parser as AsyncIterable<{
      record: (string | null)[];
      raw: string;
    }>) {
      if (!columns) {
        const header = record.map((name) => name ?? '');
        onHeader(header);
        columns = header.map((name) => table.columns.find((c) => c.name === name));
        continue;
      }
      line++;
      if (line - 1 > limits.maxRows) {
        throw tooLarge(`more than ${limits.maxRows.toLocaleString('en')} rows`, limits);
      }
      if (record.includes('')) nullForUnquotedEmpty(record, raw);
      for (let index = 0; index < record.length; index++) {
        const column = columns[index];
        if (column) record[index] = unguardFormula(column, record[index] ?? null);
      }
      batch.push({ line, cells: record });
      if (batch.length === BATCH_ROWS) {
        yield batch;
        batch = [];
      }
    }
  } catch (error) {
    if (error instanceof CsvError) throw badFile(`The CSV file does not parse: ${error.message}`);
    throw error;
  } finally {
    parser.destroy();
    source.destroy();
  }
  if (!columns) throw badFile('The file is empty: it needs a header row of column names.');
  if (batch.length > 0) yield batch;
}
