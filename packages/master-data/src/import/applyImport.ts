import { Prisma, type Queryable, type TransactionClient } from '@tablelock/db';
import { parseFencingToken } from '@tablelock/lock';
import { fencedSave } from '../fencedSave';
import { MasterDataError } from '../masterDataError';
import { postgresErrorOf } from '../postgresError';
import type { RowValues } from '../readRows';
import { columnRef } from '../sqlFragments';
import { type MasterTable, readMasterTable, type TableColumn } from '../tableColumns';
import type { ImportReport, ImportRow } from './importReport';
import { importNotFound, readImportReport } from './readImportReport';

export interface ApplyImportRequest {
  schema: string;
  /** The dry run to apply. */
  id: string;
  holder: string;
  token: string;
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
export async function applyImport(
  db: Queryable,
  request: ApplyImportRequest,
): Promise<ImportReport> {
  const token = parseFencingToken(request.token);
  const report = await readImportReport(db, request.id, request.holder);
  if (report.token !== token) {
    throw new MasterDataError(
      'BAD_USER_INPUT',
      'This dry run was made under an earlier lock of the table; run it again.',
    );
  }
  if (report.counts.error > 0) {
    throw new MasterDataError(
      'IMPORT_HAS_ERRORS',
      `${report.counts.error} rows of the file have errors; correct them and run the dry run again.`,
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
  };
  await fencedSave(db, save, async (tx) => {
    const [stored] = await tx.$queryRaw<{ rows: ImportRow[] }[]>`
      DELETE FROM tablelock.import_dry_run WHERE id = ${report.id}::uuid RETURNING rows`;
    // Another apply of the same dry run got here first (it was read before that one committed).
    if (!stored) throw importNotFound();
    const { rows } = stored;
    await checkVersions(tx, table, rows);
    const creates = rows.filter((row) => row.outcome === 'create');
    const updates = rows.filter((row) => row.outcome === 'update');
    try {
      const inserted = await insertRows(tx, table, creates);
      const updated = await updateRows(tx, table, updates);
      return { saved: true, inserted, updated, deleted: 0 };
    } catch (error) {
      const postgres = postgresErrorOf(error);
      if (!postgres) throw error;
      throw new MasterDataError(
        'IMPORT_REJECTED',
        `The database refused the import: ${postgres.message}. Nothing was written.`,
      );
    }
  });
  const { token: _, ...applied } = report;
  return { ...applied, applied: true };
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
async function checkVersions(tx: TransactionClient, table: MasterTable, rows: ImportRow[]) {
  const found = await tx.$queryRaw<{ ord: number; version: string }[]>`
    SELECT import_key.ord::int AS ord, import_target.xmin::text AS version
    FROM jsonb_array_elements(${JSON.stringify(rows.map((row) => row.key))}::jsonb)
         WITH ORDINALITY AS import_key(value, ord)
    JOIN ${Prisma.raw(table.qualifiedName)} AS import_target
      ON ${keyMatch(table, 'import_target', Prisma.sql`import_key.value`)}
    FOR UPDATE OF import_target`;
  const versionNow = new Map(found.map(({ ord, version }) => [ord - 1, version]));
  const changed = rows.filter((row, index) => (versionNow.get(index) ?? null) !== row.version);
  if (changed.length === 0) return;
  const lines = changed.map((row) => row.line);
  throw new MasterDataError(
    'IMPORT_ROWS_CHANGED',
    `Since the dry run, someone else changed, deleted or created ${changed.length === 1 ? 'a row' : `${changed.length} rows`} of the file (file rows ${lines.slice(0, 10).join(', ')}${lines.length > 10 ? ', …' : ''}). Nothing was written; run the dry run again.`,
    {
      rows: changed
        .slice(0, CHANGED_ROWS_LISTED)
        .map((row) => ({ line: row.line, key: row.key, version: row.version })),
    },
  );
}

/**
 * One INSERT per set of columns given: an empty cell of a column with a default is left out,
 * so that the default applies.
 */
async function insertRows(tx: TransactionClient, table: MasterTable, rows: ImportRow[]) {
  const byColumns = new Map<string, { columns: TableColumn[]; values: RowValues[] }>();
  for (const row of rows) {
    const columns = table.columns.filter(
      (column) =>
        column.name in row.values && !(row.values[column.name] === null && column.hasDefault),
    );
    const group = columns.map((column) => column.name).join('\u0000');
    const entry = byColumns.get(group) ?? { columns, values: [] };
    entry.values.push(row.values);
    byColumns.set(group, entry);
  }
  let inserted = 0;
  for (const { columns, values } of byColumns.values()) {
    inserted += await tx.$executeRaw`
      INSERT INTO ${Prisma.raw(table.qualifiedName)} (${Prisma.join(columns.map(columnRef))})
      SELECT ${Prisma.join(
        columns.map(
          (column) => Prisma.sql`(new_row.value->>${column.name})::${Prisma.raw(column.dataType)}`,
        ),
      )}
      FROM jsonb_array_elements(${JSON.stringify(values)}::jsonb) AS new_row(value)`;
  }
  return inserted;
}

/** One UPDATE for all rows: each sets only its changed columns. */
async function updateRows(tx: TransactionClient, table: MasterTable, rows: ImportRow[]) {
  const changedColumns = table.columns.filter((column) =>
    rows.some((row) => row.changed.includes(column.name)),
  );
  if (changedColumns.length === 0) return 0;
  const changes = rows.map((row) => ({
    key: row.key,
    values: Object.fromEntries(row.changed.map((name) => [name, row.values[name] ?? null])),
  }));
  const assignments = changedColumns.map(
    (column) => Prisma.sql`${columnRef(column)} = CASE WHEN change.value->'values' ? ${column.name}
      THEN (change.value->'values'->>${column.name})::${Prisma.raw(column.dataType)}
      ELSE import_target.${columnRef(column)} END`,
  );
  return tx.$executeRaw`
    UPDATE ${Prisma.raw(table.qualifiedName)} AS import_target SET ${Prisma.join(assignments)}
    FROM jsonb_array_elements(${JSON.stringify(changes)}::jsonb) AS change(value)
    WHERE ${keyMatch(table, 'import_target', Prisma.sql`change.value->'key'`)}`;
}
