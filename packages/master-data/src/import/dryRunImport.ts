import { inTransaction, type Queryable } from '@tablelock/db';
import { assertHoldsLock, parseFencingToken } from '@tablelock/lock';
import { MasterDataError } from '../masterDataError';
import { readMasterTable } from '../tableColumns';
import { classifyRows } from './classifyRows';
import { type ImportFormat, readImportFile } from './importFile';
import { countOutcomes, type ImportReport } from './importReport';

export interface ImportRequest {
  schema: string;
  tableName: string;
  /** Who imports: must be the lock's editor. */
  holder: string;
  /** The fencing token of the holder's acquisition. */
  token: string;
  fileName: string;
  format: ImportFormat;
  content: Buffer;
}

/** Dry runs older than this are dropped (a day's work, and then some). */
const KEEP_DRY_RUNS = '1 day';

/**
 * What a file would do to a table, row by row, written nowhere but kept (until applied, or
 * replaced by the holder's next dry run of the table) so that applying it writes what was
 * shown. Only the lock's holder may dry-run, as only they may apply. Rows of the table that
 * the file does not have are left alone: an import creates and updates, it never deletes.
 */
export async function dryRunImport(db: Queryable, request: ImportRequest): Promise<ImportReport> {
  const { schema, tableName, holder, fileName } = request;
  const token = parseFencingToken(request.token);
  const table = await readMasterTable(db, schema, tableName);
  if (table.primaryKey.length === 0) {
    throw new MasterDataError(
      'IMPORT_NO_PRIMARY_KEY',
      `${tableName} has no primary key, so the rows of a file cannot be matched to its rows.`,
    );
  }
  const file = await readImportFile(table, request.format, request.content);
  return inTransaction(
    db,
    async (tx) => {
      await assertHoldsLock(tx, { tableName, editor: holder, token });
      const rows = await classifyRows(tx, table, file);
      const counts = countOutcomes(rows);
      await tx.$executeRaw`DELETE FROM tablelock.import_dry_run
        WHERE (editor = ${holder} AND table_name = ${tableName})
           OR created_at < now() - ${KEEP_DRY_RUNS}::interval`;
      const [kept] = await tx.$queryRaw<{ id: string }[]>`
        INSERT INTO tablelock.import_dry_run
          (table_name, editor, token, file_name, columns, counts, rows)
        VALUES (${tableName}, ${holder}, ${token}::bigint, ${fileName}, ${file.columns}::text[],
                ${JSON.stringify(counts)}::jsonb, ${JSON.stringify(rows)}::jsonb)
        RETURNING id::text`;
      return {
        id: (kept as { id: string }).id,
        tableName,
        fileName,
        columns: file.columns,
        counts,
        applied: false,
      };
    },
    { timeout: 5 * 60_000 },
  );
}
