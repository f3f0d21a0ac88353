import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { graphql } from './generated';
import type { ClientImportRowsMutation, ImportFormat } from './generated/graphql';
import type { TablelockApi } from './tablelockApi';

/** What an import did (`applied`) or would do (a dry run, kept for approval or to apply). */
export type ImportResult = ClientImportRowsMutation['importRows'];

export interface ImportOptions {
  /** Only classify the rows and keep the report (default), or write them when none has an error. */
  dryRun?: boolean;
}

const importRowsMutation = graphql(`
  mutation ClientImportRows(
    $table: String!
    $token: String!
    $fileName: String!
    $format: ImportFormat!
    $contentBase64: String!
    $dryRun: Boolean
  ) {
    importRows(
      table: $table
      token: $token
      fileName: $fileName
      format: $format
      contentBase64: $contentBase64
      dryRun: $dryRun
    ) {
      id
      table
      applied
      counts {
        create
        update
        unchanged
        error
        total
      }
    }
  }
`);

const DRY_RUN_RETRY_MS = 30_000;

const FORMATS: Record<string, ImportFormat> = { '.csv': 'CSV', '.xlsx': 'XLSX' };

/** The file's format by its name: `.csv` or `.xlsx`. */
export function importFormatOf(path: string): ImportFormat {
  const format = FORMATS[extname(path).toLowerCase()];
  if (!format) throw new TypeError(`${path}: an import is a .csv or .xlsx file.`);
  return format;
}

/**
 * Imports the file at `path` into `table` behind its lock's `token`. A dry run writes nothing, so
 * it is retried like a read; an apply is sent once (importRows takes no idempotency key).
 */
export async function importFile(
  api: TablelockApi,
  table: string,
  token: string,
  path: string,
  options: ImportOptions = {},
): Promise<ImportResult> {
  const dryRun = options.dryRun ?? true;
  const format = importFormatOf(path);
  const contentBase64 = (await readFile(path)).toString('base64');
  const { importRows } = await api.request(
    importRowsMutation,
    { table, token, fileName: basename(path), format, contentBase64, dryRun },
    { retryForMs: dryRun ? api.retryFor(DRY_RUN_RETRY_MS) : 0 },
  );
  return importRows;
}
