import { randomUUID } from 'node:crypto';
import { inTransaction, type Queryable } from '@tablelock/db';
import {
  assertHoldsLock,
  type HeldLock,
  parseFencingToken,
  readRowLockColumn,
} from '@tablelock/lock';
import { inSpan } from '@tablelock/tracing';
import { assertMayImport, type ImportCaller } from './assertMayImport';
import { stopWhenAborted, throwIfCancelled } from './cancelDryRun';
import { classifyStagedRows, type ImportScope } from './classifyRows';
import { type ColumnMapping, mapHeader } from './columnMapping';
import { copyFileRows } from './copyFileRows';
import { checkHeader, type ImportContent, type ImportFormat, readImportRows } from './importFile';
import { tooLarge } from './importFileErrors';
import { IMPORT_LIMITS, type ImportLimits } from './importLimits';
import type { ImportCounts, ImportReport } from './importReport';

export interface ImportRequest extends ImportCaller {
  fileName: string;
  format: ImportFormat;
  /** The file, as it arrives (an upload, whose size the caller limits) or whole. */
  content: ImportContent;
  /** Where the file's columns go, when its header is not the table's column names. */
  columnMapping?: ColumnMapping;
  /** Lower limits than the app's (tests). */
  limits?: ImportLimits;
  /**
   * Fires when the dry run is no longer wanted (its client went away): the statement it runs
   * is cancelled in the database and nothing is kept.
   */
  signal?: AbortSignal;
}

/** Dry runs older than this are dropped (a day's work, and then some). */
const KEEP_DRY_RUNS = '1 day';

/**
 * What a file would do to a table, row by row, written nowhere but kept (until applied, or
 * replaced by the holder's next dry run of the table) so that applying it writes what was
 * shown. Only the lock's holder may dry-run, as only they may apply: that is checked before
 * the file is read, and again where the dry run is kept. The file's rows go into Postgres as
 * they are read (COPY) and are classified there, set-based: the API holds a batch of rows at
 * a time, whatever the file's size. Rows of the table that the file does not have are left
 * alone: an import creates and updates, it never deletes.
 */
export function dryRunImport(db: Queryable, request: ImportRequest): Promise<ImportReport> {
  const attributes = { 'tablelock.table': request.tableName, 'tablelock.format': request.format };
  return inSpan('tablelock.import.dry_run', attributes, async (span) => {
    const report = await dryRun(db, request);
    span.setAttribute('tablelock.rows', report.counts.total);
    return report;
  });
}

async function dryRun(db: Queryable, request: ImportRequest): Promise<ImportReport> {
  const { tableName, holder, fileName, content, signal } = request;
  const limits = request.limits ?? IMPORT_LIMITS;
  if (Buffer.isBuffer(content) && content.length > limits.maxBytes) {
    throw tooLarge(`${(content.length / 1024 / 1024).toFixed(1)} MB`, limits);
  }
  const token = parseFencingToken(request.token);
  const table = await assertMayImport(db, request);
  const id = randomUUID();
  let fileColumns: (string | null)[] = [];
  const onHeader = (header: string[]) => {
    fileColumns = mapHeader(header, request.columnMapping);
    checkHeader(table, fileColumns, header);
  };
  try {
    // Reading the file and copying its rows into Postgres go together, a batch at a time.
    await inSpan('tablelock.import.parse', { 'tablelock.table': tableName }, () =>
      copyFileRows(db, id, readImportRows(table, request.format, content, limits, onHeader)),
    );
    // Fresh statistics of the staging table, which the COPY has just filled. Planned on stale
    // ones, the classification's UNIQUE check sorted the whole file again for each of its rows
    // (an 8,000-row export: 21 s instead of 0.3 s).
    await db.$executeRaw`ANALYZE tablelock.import_staging`;
    const columns = fileColumns.filter((name): name is string => name !== null);
    throwIfCancelled(signal);
    return await inTransaction(
      db,
      (tx) =>
        stopWhenAborted(db, tx, id, signal, async () => {
          const held = await assertHoldsLock(tx, { tableName, editor: holder, token });
          // Dry runs of one editor and table take turns, each replacing the one before.
          await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`import:${holder}:${tableName}`}, 0))`;
          // A dry run a pending change request carries is its approver's to apply.
          await tx.$executeRaw`DELETE FROM tablelock.import_dry_run AS dry_run
          WHERE ((editor = ${holder} AND table_name = ${tableName})
                 OR created_at < now() - ${KEEP_DRY_RUNS}::interval)
            AND NOT EXISTS (SELECT FROM tablelock.change_request AS request
                            WHERE request.import_dry_run_id = dry_run.id
                              AND request.state = 'pending')`;
          await tx.$executeRaw`DELETE FROM tablelock.import_staging
          WHERE created_at < now() - ${KEEP_DRY_RUNS}::interval`;
          await tx.$executeRaw`INSERT INTO tablelock.import_dry_run
            (id, table_name, editor, token, file_name, columns, counts)
          VALUES (${id}::uuid, ${tableName}, ${holder}, ${token}::bigint, ${fileName},
                  ${columns}::text[], '{}'::jsonb)`;
          await classifyStagedRows(tx, table, fileColumns, id, await scopeOf(tx, request, held));
          const [counted] = await tx.$queryRaw<{ counts: ImportCounts }[]>`
          UPDATE tablelock.import_dry_run SET counts = (
            SELECT jsonb_build_object(
              'create', count(*) FILTER (WHERE outcome = 'create'),
              'update', count(*) FILTER (WHERE outcome = 'update'),
              'unchanged', count(*) FILTER (WHERE outcome = 'unchanged'),
              'error', count(*) FILTER (WHERE outcome = 'error'),
              'total', count(*))
            FROM tablelock.import_dry_run_row WHERE dry_run_id = ${id}::uuid)
          WHERE id = ${id}::uuid RETURNING counts`;
          // Not kept once its client has gone, however far it got.
          throwIfCancelled(signal);
          return {
            id,
            tableName,
            fileName,
            columns,
            counts: (counted as { counts: ImportCounts }).counts,
            applied: false,
          };
        }),
      { timeout: 10 * 60_000 },
    );
  } finally {
    await db.$executeRaw`DELETE FROM tablelock.import_staging WHERE dry_run_id = ${id}::uuid`;
  }
}

/** The row scope a dry run under a scope's token keeps to; undefined for the whole table. */
async function scopeOf(
  db: Queryable,
  request: ImportRequest,
  held: HeldLock,
): Promise<ImportScope | undefined> {
  if (held.rows === null) return undefined;
  const column = await readRowLockColumn(db, request.schema, request.tableName);
  if (column === null) throw new Error(`${request.tableName} lost its row-lock column`);
  return { column, rows: held.rows, token: request.token };
}
