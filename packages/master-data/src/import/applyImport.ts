import { Prisma, type Queryable, type TransactionClient } from '@tablelock/db';
import { parseFencingToken } from '@tablelock/lock';
import { inSpan } from '@tablelock/tracing';
import type { ApprovedRequest } from '../changeRequests/approvalRequired';
import { fencedSave } from '../fencedSave';
import { MasterDataError } from '../masterDataError';
import { type PostgresError, postgresErrorOf } from '../postgresError';
import type { RowValues } from '../readRows';
import { columnRef } from '../sqlFragments';
import { type MasterTable, readMasterTable } from '../tableColumns';
import type { ImportReport } from './importReport';
import { importNotFound, readImportReport } from './readImportReport';
import { findRejectedRows, type RejectedRow } from './rejectedRows';

export interface ApplyImportRequest {
  schema: string;
  /** The dry run to apply. */
  id: string;
  holder: string;
  token: string;
  /**
   * Write the rows without errors and keep the others as the dry run (for errors.csv),
   * instead of refusing the whole file.
   */
  skipRowsWithErrors?: boolean;
  /** The approved change request that carries this dry run. */
  approval?: ApprovedRequest;
}

/** Rows named in an IMPORT_ROWS_CHANGED error, at most. */
const CHANGED_ROWS_LISTED = 100;

/**
 * Writes a dry run, all or nothing, through the grid's fenced save (the fencing token checked
 * in the same transaction; a `save` event in the history, with the file named as the reason).
 * Every row the dry run matched or meant to create is checked first, locked: one changed,
 * deleted or created by someone else since the dry run is IMPORT_ROWS_CHANGED, naming the rows,
 * and nothing is written.
 */
export function applyImport(db: Queryable, request: ApplyImportRequest): Promise<ImportReport> {
  return inSpan('tablelock.import.apply', {}, async (span) => {
    const report = await apply(db, request);
    span.setAttribute('tablelock.table', report.tableName);
    return report;
  });
}

async function apply(db: Queryable, request: ApplyImportRequest): Promise<ImportReport> {
  const token = parseFencingToken(request.token);
  const report = await readImportReport(db, request.id, request.holder);
  if (report.token !== token) {
    throw new MasterDataError(
      'BAD_USER_INPUT',
      'This dry run was made under an earlier lock of the table; run it again.',
    );
  }
  if (report.counts.error > 0 && !request.skipRowsWithErrors) {
    throw new MasterDataError(
      'IMPORT_HAS_ERRORS',
      `${report.counts.error} rows of the file have errors; correct them and run the dry run again, or apply only the rows without errors.`,
      { errorRows: report.counts.error },
    );
  }
  const table = await readMasterTable(db, request.schema, report.tableName);
  const save = {
    tableName: report.tableName,
    holder: request.holder,
    token,
    reason: `import ${report.fileName}`,
    details: { import: report.fileName },
    timeoutMs: 10 * 60_000,
    kind: 'import' as const,
    ...(request.approval ? { approval: request.approval } : {}),
  };
  await fencedSave(db, save, async (tx) => {
    // Another apply of the same dry run that got here first has deleted it by now.
    const [stored] = await tx.$queryRaw<{ id: string }[]>`
      SELECT id::text FROM tablelock.import_dry_run WHERE id = ${report.id}::uuid FOR UPDATE`;
    if (!stored) throw importNotFound();
    await checkVersions(tx, table, report.id);
    // So that the rows behind a refusal can be looked up in the same transaction.
    await tx.$executeRawUnsafe('SAVEPOINT import_rows');
    try {
      const inserted = await insertRows(tx, table, report.columns, report.id);
      const updated = await updateRows(tx, table, report.id);
      await keepOnlyErrors(tx, report.id);
      return { saved: true, inserted, updated, deleted: 0 };
    } catch (error) {
      const postgres = postgresErrorOf(error);
      if (!postgres) throw error;
      await tx.$executeRawUnsafe('ROLLBACK TO SAVEPOINT import_rows');
      throw importRejected(postgres, await findRejectedRows(tx, table, report.id, postgres));
    }
  });
  const { token: _, ...applied } = report;
  return { ...applied, applied: true };
}

function importRejected(error: PostgresError, rows: RejectedRow[]): MasterDataError {
  if (rows.length === 0) {
    return new MasterDataError(
      'IMPORT_REJECTED',
      `The database refused the import: ${error.message}. Nothing was written.`,
    );
  }
  const named = rows.map((row) => `In file row ${row.line}: ${row.message}`).join(' ');
  return new MasterDataError(
    'IMPORT_REJECTED',
    `Nothing was written: the database refused the import. ${named}`,
    { rows },
  );
}

const keyMatch = (table: MasterTable, alias: string, source: Prisma.Sql) =>
  Prisma.join(
    table.primaryKey.map(
      (column) =>
        Prisma.sql`${Prisma.raw(alias)}.${columnRef(column)} =
          (${source}->>${column.name})::${Prisma.raw(column.dataType)}`,
    ),
    ' AND ',
  );

/** Locks the rows the dry run saw and refuses if any is not as it saw it. */
async function checkVersions(tx: TransactionClient, table: MasterTable, id: string) {
  const target = Prisma.raw(table.qualifiedName);
  const matches = keyMatch(table, 'import_target', Prisma.sql`dry_row.key`);
  await tx.$queryRaw`
    SELECT count(*)::int AS locked FROM (
      SELECT FROM tablelock.import_dry_run_row AS dry_row
      JOIN ${target} AS import_target ON ${matches}
      WHERE dry_row.dry_run_id = ${id}::uuid
      FOR UPDATE OF import_target) AS locked_rows`;
  const changed = await tx.$queryRaw<
    { line: number; key: RowValues | null; version: string | null; total: number }[]
  >`
    SELECT dry_row.line, dry_row.key, dry_row.version, count(*) OVER ()::int AS total
    FROM tablelock.import_dry_run_row AS dry_row
    LEFT JOIN ${target} AS import_target ON ${matches}
    WHERE dry_row.dry_run_id = ${id}::uuid
      AND import_target.xmin::text IS DISTINCT FROM dry_row.version
    ORDER BY dry_row.line LIMIT ${CHANGED_ROWS_LISTED}`;
  if (changed.length === 0) return;
  const total = (changed[0] as { total: number }).total;
  const lines = changed.map((row) => row.line);
  throw new MasterDataError(
    'IMPORT_ROWS_CHANGED',
    `Since the dry run, someone else changed, deleted or created ${total === 1 ? 'a row' : `${total} rows`} of the file (file rows ${lines.slice(0, 10).join(', ')}${total > 10 ? ', …' : ''}). Nothing was written; run the dry run again.`,
    { rows: changed.map(({ line, key, version }) => ({ line, key, version })) },
  );
}

/**
 * One INSERT per set of columns given: an empty cell of a column with a default is left out,
 * so that the default applies.
 */
async function insertRows(
  tx: TransactionClient,
  table: MasterTable,
  fileColumns: string[],
  id: string,
) {
  const columns = table.columns.filter((column) => fileColumns.includes(column.name));
  const defaulted = columns.filter((column) => column.hasDefault);
  const emptyDefaults = Prisma.sql`ARRAY[${
    defaulted.length > 0
      ? Prisma.join(
          defaulted.map((column) => Prisma.sql`(new_row."values"->>${column.name}) IS NULL`),
        )
      : Prisma.empty
  }]::boolean[]`;
  const shapes = await tx.$queryRaw<{ empty: boolean[] }[]>`
    SELECT DISTINCT ${emptyDefaults} AS empty FROM tablelock.import_dry_run_row AS new_row
    WHERE new_row.dry_run_id = ${id}::uuid AND new_row.outcome = 'create'`;
  let inserted = 0;
  for (const { empty } of shapes) {
    const given = columns.filter((column) => !empty[defaulted.indexOf(column)]);
    inserted += await tx.$executeRaw`
      INSERT INTO ${Prisma.raw(table.qualifiedName)} (${Prisma.join(given.map(columnRef))})
      SELECT ${Prisma.join(
        given.map(
          (column) =>
            Prisma.sql`(new_row."values"->>${column.name})::${Prisma.raw(column.dataType)}`,
        ),
      )}
      FROM tablelock.import_dry_run_row AS new_row
      WHERE new_row.dry_run_id = ${id}::uuid AND new_row.outcome = 'create'
        AND ${emptyDefaults} = ${empty}::boolean[]`;
  }
  return inserted;
}

/** One UPDATE for all rows: each sets only its changed columns. */
async function updateRows(tx: TransactionClient, table: MasterTable, id: string) {
  const names = await tx.$queryRaw<{ name: string }[]>`
    SELECT DISTINCT unnest(changed) AS name FROM tablelock.import_dry_run_row
    WHERE dry_run_id = ${id}::uuid AND outcome = 'update'`;
  const changedColumns = table.columns.filter((column) =>
    names.some(({ name }) => name === column.name),
  );
  if (changedColumns.length === 0) return 0;
  const assignments = changedColumns.map(
    (
      column,
    ) => Prisma.sql`${columnRef(column)} = CASE WHEN ${column.name}::text = ANY(change.changed)
      THEN (change."values"->>${column.name})::${Prisma.raw(column.dataType)}
      ELSE import_target.${columnRef(column)} END`,
  );
  return tx.$executeRaw`
    UPDATE ${Prisma.raw(table.qualifiedName)} AS import_target SET ${Prisma.join(assignments)}
    FROM tablelock.import_dry_run_row AS change
    WHERE change.dry_run_id = ${id}::uuid AND change.outcome = 'update'
      AND ${keyMatch(table, 'import_target', Prisma.sql`change.key`)}`;
}

/**
 * What is left of a dry run once written: its rows with errors, for errors.csv; nothing at all
 * when it had none.
 */
async function keepOnlyErrors(tx: TransactionClient, id: string) {
  await tx.$executeRaw`DELETE FROM tablelock.import_dry_run_row
    WHERE dry_run_id = ${id}::uuid AND outcome <> 'error'`;
  await tx.$executeRaw`DELETE FROM tablelock.import_dry_run AS dry_run
    WHERE id = ${id}::uuid AND NOT EXISTS (
      SELECT FROM tablelock.import_dry_run_row WHERE dry_run_id = dry_run.id)`;
  await tx.$executeRaw`UPDATE tablelock.import_dry_run
    SET counts = jsonb_build_object('create', 0, 'update', 0, 'unchanged', 0,
                                    'error', counts->'error', 'total', counts->'error')
    WHERE id = ${id}::uuid`;
}
