import { inTransaction, type Queryable } from '@tablelock/db';
import { assertHoldsLock, parseFencingToken } from '@tablelock/lock';
import { assertMayImport, type ImportCaller } from './assertMayImport';
import { classifyRows } from './classifyRows';
import { type ImportFormat, readImportFile } from './importFile';
import type { ImportLimits } from './importLimits';
import { countOutcomes, type ImportReport } from './importReport';

export interface ImportRequest extends ImportCaller {
  fileName: string;
  format: ImportFormat;
  content: Buffer;
  /** Lower limits than the app's (tests). */
  limits?: ImportLimits;
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
  const { tableName, holder, fileName } = request;
  const token = parseFencingToken(request.token);
  const table = await assertMayImport(db, request);
  const file = await readImportFile(table, request.format, request.content, request.limits);
  return inTransaction(
    db,
    async (tx) => {
      await assertHoldsLock(tx, { tableName, editor: holder, token });
      const rows = await classifyRows(tx, table, file);
      const counts = countOutcomes(rows);
      // Dry runs of one editor and table that end together: each waits for the one before to
      // commit, and then replaces it.
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`import:${holder}:${tableName}`}, 0))`;
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
