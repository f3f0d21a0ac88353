import { Prisma, type Queryable } from '@tablelock/db';
import { z } from 'zod';
import { MasterDataError } from '../masterDataError';
import { readMasterTable, requireColumn, type TableColumn } from '../tableColumns';
import type { ImportOutcome, ImportReport, ImportRow } from './importReport';

export const importNotFound = () =>
  new MasterDataError(
    'NOT_FOUND',
    'No such dry run: it was applied, replaced by a newer one, or is not yours.',
  );

/** A kept dry run of `holder`'s (NOT_FOUND for anyone else's), without its rows. */
export async function readImportReport(
  db: Queryable,
  id: string,
  holder: string,
): Promise<ImportReport & { token: string }> {
  if (!z.uuid().safeParse(id).success) throw importNotFound();
  const [report] = await db.$queryRaw<(ImportReport & { token: string })[]>`
    SELECT id::text, table_name AS "tableName", file_name AS "fileName", columns, counts,
           false AS applied, token::text
    FROM tablelock.import_dry_run WHERE id = ${id}::uuid AND editor = ${holder}`;
  if (!report) throw importNotFound();
  return report;
}

const ROW_FIELDS = Prisma.sql`line, outcome, key, version, "values", changed, previous, errors`;

export interface ImportRowQuery {
  /** Only rows with these outcomes; all when empty. */
  outcomes: ImportOutcome[];
  offset: number;
  limit: number;
}

const MAX_ROWS_PER_PAGE = 1000;

/** A page of a dry run's rows in file order, with how many match `outcomes` in all. */
export async function readImportRows(
  db: Queryable,
  id: string,
  holder: string,
  query: ImportRowQuery,
): Promise<{ total: number; rows: ImportRow[] }> {
  const report = await readImportReport(db, id, holder);
  if (query.offset < 0 || query.limit < 0 || query.limit > MAX_ROWS_PER_PAGE) {
    throw new MasterDataError(
      'BAD_USER_INPUT',
      `offset must be 0 or more, limit from 0 to ${MAX_ROWS_PER_PAGE}.`,
    );
  }
  const outcomes: ImportOutcome[] =
    query.outcomes.length > 0 ? query.outcomes : ['create', 'update', 'unchanged', 'error'];
  const total = outcomes.reduce((sum, outcome) => sum + report.counts[outcome], 0);
  const rows = await db.$queryRaw<ImportRow[]>`
    SELECT ${ROW_FIELDS} FROM tablelock.import_dry_run_row
    WHERE dry_run_id = ${id}::uuid AND outcome = ANY(${outcomes}::text[])
    ORDER BY line OFFSET ${query.offset} LIMIT ${query.limit}`;
  return { total, rows };
}

/** Every row a dry run found errors in, for the errors file. */
export async function readImportErrors(
  db: Queryable,
  schema: string,
  id: string,
  holder: string,
): Promise<{ report: ImportReport; columns: TableColumn[]; rows: ImportRow[] }> {
  const report = await readImportReport(db, id, holder);
  const table = await readMasterTable(db, schema, report.tableName);
  const columns = report.columns.map((name) => requireColumn(table, name));
  const rows = await db.$queryRaw<ImportRow[]>`
    SELECT ${ROW_FIELDS} FROM tablelock.import_dry_run_row
    WHERE dry_run_id = ${id}::uuid AND outcome = 'error' ORDER BY line`;
  return { report, columns, rows };
}
