import { Prisma, type TransactionClient } from '@tablelock/db';
import { describeViolation, type RowViolation } from '../errors/describeViolation';
import { EXCLUSION_SQLSTATE } from '../errors/overlappingPeriod';
import { constraintNameIn, readViolatedConstraint } from '../errors/violatedConstraint';
import type { PostgresError } from '../postgresError';
import type { RowValues } from '../readRows';
import { columnRef } from '../sqlFragments';
import { type MasterTable, requireColumn, type TableColumn } from '../tableColumns';

/** A file row the database refused when an import was applied, and why. */
export interface RejectedRow extends RowViolation {
  line: number;
  key: RowValues | null;
}

/** Rows named in an IMPORT_REJECTED error, at most. */
export const REJECTED_ROWS_LISTED = 5;

/**
 * The first file rows behind a refused apply, by line. The dry run checks each row against
 * the table as it was, so what it lets through and the database refuses is a UNIQUE value that
 * another row of the file gives up in the same import (values swapped between rows): those
 * rows are the ones whose new value a row of the table still holds. Or, in a table with a key
 * WITHOUT OVERLAPS, a period that overlaps a row's the dry run did not see as the same row (it
 * checks no periods). Empty for other refusals.
 * Runs queries: call it after ROLLBACK TO SAVEPOINT.
 */
export async function findRejectedRows(
  tx: TransactionClient,
  table: MasterTable,
  dryRunId: string,
  error: PostgresError,
): Promise<RejectedRow[]> {
  if (error.code !== '23505' && error.code !== EXCLUSION_SQLSTATE) return [];
  const name = error.constraint ?? constraintNameIn(error.message);
  const constraint = name ? await readViolatedConstraint(tx, table.qualifiedName, name) : undefined;
  if (!constraint || constraint.table !== table.name) return [];
  if (error.code === EXCLUSION_SQLSTATE) {
    return describeRows(
      tx,
      table,
      error,
      await rowsOverlappingTable(tx, table, dryRunId, constraint.columns),
    );
  }
  const own = Prisma.join(
    table.primaryKey.map(
      (column) =>
        Prisma.sql`own.${columnRef(column)} = (dry_row.key->>${column.name})::${Prisma.raw(column.dataType)}`,
    ),
    ' AND ',
  );
  const sameValues = Prisma.join(
    constraint.columns.map((columnName) => {
      const column = requireColumn(table, columnName);
      // A column the file leaves out keeps the row's value.
      return Prisma.sql`holder.${columnRef(column)} = CASE WHEN dry_row."values" ? ${columnName}
        THEN (dry_row."values"->>${columnName})::${Prisma.raw(column.dataType)}
        ELSE own.${columnRef(column)} END`;
    }),
    ' AND ',
  );
  const target = Prisma.raw(table.qualifiedName);
  const rows = await tx.$queryRaw<FileRow[]>`
    SELECT dry_row.line, dry_row.key, dry_row."values"
    FROM tablelock.import_dry_run_row AS dry_row
    LEFT JOIN ${target} AS own ON ${own}
    WHERE dry_row.dry_run_id = ${dryRunId}::uuid AND dry_row.outcome IN ('create', 'update')
      AND EXISTS (SELECT FROM ${target} AS holder
                  WHERE ${sameValues} AND holder.ctid IS DISTINCT FROM own.ctid)
    ORDER BY dry_row.line LIMIT ${REJECTED_ROWS_LISTED}`;
  return describeRows(tx, table, error, rows);
}

/**
 * The file rows whose period overlaps that of a row of the table, other than the row itself,
 * with the same other columns of `columns` (a key WITHOUT OVERLAPS, its period last). Rows of
 * the file that overlap only each other are not found: the table holds neither.
 */
async function rowsOverlappingTable(
  tx: TransactionClient,
  table: MasterTable,
  dryRunId: string,
  columns: string[],
): Promise<FileRow[]> {
  const fileValue = (column: TableColumn) =>
    Prisma.sql`coalesce(dry_row.key->>${column.name}, dry_row."values"->>${column.name})::${Prisma.raw(column.dataType)}`;
  const keyColumns = columns.map((name) => requireColumn(table, name));
  const period = keyColumns.at(-1);
  const overlaps = Prisma.join(
    keyColumns.map((column) =>
      column === period
        ? Prisma.sql`holder.${columnRef(column)} && ${fileValue(column)}`
        : Prisma.sql`holder.${columnRef(column)} = ${fileValue(column)}`,
    ),
    ' AND ',
  );
  const notItself = Prisma.join(
    table.primaryKey.map(
      (column) =>
        Prisma.sql`holder.${columnRef(column)} IS NOT DISTINCT FROM (dry_row.key->>${column.name})::${Prisma.raw(column.dataType)}`,
    ),
    ' AND ',
  );
  return tx.$queryRaw<FileRow[]>`
    SELECT dry_row.line, dry_row.key, dry_row."values"
    FROM tablelock.import_dry_run_row AS dry_row
    WHERE dry_row.dry_run_id = ${dryRunId}::uuid AND dry_row.outcome IN ('create', 'update')
      AND EXISTS (SELECT FROM ${Prisma.raw(table.qualifiedName)} AS holder
                  WHERE ${overlaps} AND NOT (${notItself}))
    ORDER BY dry_row.line LIMIT ${REJECTED_ROWS_LISTED}`;
}

interface FileRow {
  line: number;
  key: RowValues | null;
  values: RowValues;
}

async function describeRows(
  tx: TransactionClient,
  table: MasterTable,
  error: PostgresError,
  rows: FileRow[],
): Promise<RejectedRow[]> {
  const described = await Promise.all(
    rows.map(async (row) => {
      const violation = await describeViolation(tx, table, error, {
        ...(row.key ? { key: row.key } : {}),
        values: row.values,
      });
      return violation ? { line: row.line, key: row.key, ...violation } : undefined;
    }),
  );
  return described.filter((row) => row !== undefined);
}
