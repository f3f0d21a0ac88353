import { Prisma, type Queryable, type TransactionClient } from '@tablelock/db';
import { parseFencingToken } from '@tablelock/lock';
import { z } from 'zod';
import { describeViolation, type WrittenRow } from './errors/describeViolation';
import { fencedSave } from './fencedSave';
import { MasterDataError } from './masterDataError';
import { postgresErrorOf } from './postgresError';
import type { RowChangeKind, RowChanges, SaveResult } from './rowChanges';
import { applyChangesInBulk } from './saveRowsInBulk';
import { columnRef, keyCondition, typedValue } from './sqlFragments';
import { type MasterTable, readMasterTable, requireColumn } from './tableColumns';

export type { RowChangeKind, RowChanges, RowError, RowErrorCode, SaveResult } from './rowChanges';

const MAX_CHANGES = 1000;
const values = z.record(z.string(), z.string().nullable());
const changesSchema = z
  .object({
    inserts: z.array(z.object({ values })).nullish(),
    updates: z
      .array(z.object({ key: values, version: z.string().regex(/^\d+$/), values }))
      .nullish(),
    deletes: z.array(z.object({ key: values, version: z.string().regex(/^\d+$/) })).nullish(),
  })
  .refine(
    (c) =>
      (c.inserts?.length ?? 0) + (c.updates?.length ?? 0) + (c.deletes?.length ?? 0) <= MAX_CHANGES,
    `at most ${MAX_CHANGES} changes per save`,
  );

export interface SaveRequest {
  schema: string;
  tableName: string;
  /** Who saves: must be the lock's editor. */
  holder: string;
  /** The fencing token of the holder's acquisition. */
  token: string;
  changes: RowChanges;
}

/**
 * Applies a table's inserts, updates and deletes in one transaction, all or nothing, for the
 * holder of its lock only, behind the fencing token (LOCK_LOST if the acquisition is no longer
 * current, in the same transaction as the writes). The changes are written in bulk first; if
 * anything is refused, again row by row, each under its own savepoint so that one bad row does
 * not hide the others' errors, then the whole transaction is rolled back and every failure is
 * reported by row. A row changed or deleted since it was
 * read (its `xmin` moved) is a ROW_CONFLICT, never overwritten. A save is recorded in the
 * audit history and announced, in its transaction.
 */
export async function saveRows(db: Queryable, request: SaveRequest): Promise<SaveResult> {
  const { schema, tableName } = request;
  const token = parseFencingToken(request.token);
  const table = await readMasterTable(db, schema, tableName);
  const changes = validRowChanges(table, request.changes);
  return fencedSave(db, { tableName, holder: request.holder, token }, (tx) =>
    applyChanges(tx, table, changes),
  );
}

/** `changes` checked against `table` (shape, bounds, keys, columns), else BAD_USER_INPUT. */
export function validRowChanges(table: MasterTable, changes: RowChanges): RowChanges {
  const parsed = changesSchema.safeParse(changes);
  if (!parsed.success) throw new MasterDataError('BAD_USER_INPUT', z.prettifyError(parsed.error));
  if (table.primaryKey.length === 0) {
    throw new MasterDataError(
      'BAD_USER_INPUT',
      `${table.name} has no primary key, so its rows cannot be edited.`,
    );
  }
  checkColumns(table, parsed.data);
  return parsed.data;
}

/**
 * Writes `changes` in the caller's transaction, under a savepoint: all of them, or none and
 * every row's error.
 */
export async function applyChanges(
  tx: TransactionClient,
  table: MasterTable,
  changes: RowChanges,
): Promise<SaveResult> {
  const result: SaveResult = {
    saved: true,
    inserted: 0,
    updated: 0,
    deleted: 0,
    rowErrors: [],
    updatedVersions: [],
  };
  // One savepoint around all changes: if any fails, all are undone, and the transaction (which
  // may be a caller's) goes on.
  await tx.$executeRawUnsafe('SAVEPOINT save_rows');
  const inBulk = await applyChangesInBulk(tx, table, changes);
  if (inBulk) return inBulk;
  // Something was refused: row by row from the start, to name every row's error.
  await tx.$executeRawUnsafe('ROLLBACK TO SAVEPOINT save_rows');
  // Deletes first, so that a row deleted and inserted again with the same key saves.
  for (const [index, change] of (changes.deletes ?? []).entries()) {
    const count = await runChange(
      tx,
      table,
      result,
      'delete',
      index,
      { key: change.key },
      () =>
        tx.$executeRaw`DELETE FROM ${Prisma.raw(table.qualifiedName)}
        WHERE ${keyCondition(table.primaryKey, change.key)} AND xmin = ${change.version}::xid`,
    );
    if (count !== undefined) result.deleted += count;
  }
  for (const [index, change] of (changes.updates ?? []).entries()) {
    const assignments = Object.entries(change.values).map(([name, value]) => {
      const column = requireColumn(table, name);
      return Prisma.sql`${columnRef(column)} = ${typedValue(column, value)}`;
    });
    if (assignments.length === 0) continue;
    let version: string | undefined;
    const count = await runChange(tx, table, result, 'update', index, change, async () => {
      const updated = await tx.$queryRaw<{ version: string }[]>`
        UPDATE ${Prisma.raw(table.qualifiedName)} SET ${Prisma.join(assignments)}
        WHERE ${keyCondition(table.primaryKey, change.key)} AND xmin = ${change.version}::xid
        RETURNING xmin::text AS version`;
      version = updated[0]?.version;
      return updated.length;
    });
    if (count !== undefined) result.updated += count;
    if (version !== undefined) result.updatedVersions.push({ index, version });
  }
  for (const [index, change] of (changes.inserts ?? []).entries()) {
    const entries = Object.entries(change.values).map(([name, value]) => ({
      column: requireColumn(table, name),
      value,
    }));
    const count = await runChange(tx, table, result, 'insert', index, change, () =>
      entries.length === 0
        ? tx.$executeRaw`INSERT INTO ${Prisma.raw(table.qualifiedName)} DEFAULT VALUES`
        : tx.$executeRaw`INSERT INTO ${Prisma.raw(table.qualifiedName)}
            (${Prisma.join(entries.map(({ column }) => columnRef(column)))})
            VALUES (${Prisma.join(entries.map(({ column, value }) => typedValue(column, value)))})`,
    );
    if (count !== undefined) result.inserted += count;
  }
  if (result.rowErrors.length > 0) {
    await tx.$executeRawUnsafe('ROLLBACK TO SAVEPOINT save_rows');
    return {
      saved: false,
      inserted: 0,
      updated: 0,
      deleted: 0,
      rowErrors: result.rowErrors,
      updatedVersions: [],
    };
  }
  return result;
}

// Names are checked before any SQL runs: an unknown column is a malformed request, not a row error.
function checkColumns(table: MasterTable, changes: RowChanges) {
  const keyed = [...(changes.updates ?? []), ...(changes.deletes ?? [])];
  for (const { key } of keyed) {
    const missing = table.primaryKey.filter((column) => !(column.name in key));
    if (missing.length > 0 || Object.keys(key).length !== table.primaryKey.length) {
      throw new MasterDataError(
        'BAD_USER_INPUT',
        `A row key of ${table.name} has exactly the columns ${table.primaryKey.map((c) => c.name).join(', ')}.`,
      );
    }
  }
  for (const change of [...(changes.inserts ?? []), ...(changes.updates ?? [])]) {
    for (const name of Object.keys(change.values)) requireColumn(table, name);
  }
  // A row is known by its key: rows that point at it (FKs, history, other editors' grids)
  // would follow a changed key silently or break. Delete and insert instead.
  for (const { key, values } of changes.updates ?? []) {
    const changed = table.primaryKey.filter(
      ({ name }) => name in values && values[name] !== key[name],
    );
    if (changed.length > 0) {
      throw new MasterDataError(
        'BAD_USER_INPUT',
        `The primary key of a row of ${table.name} cannot be changed (${changed.map((c) => c.name).join(', ')}); delete the row and insert a new one.`,
      );
    }
  }
}

/** Runs one change under a savepoint; records its error (or a conflict) and returns the row count. */
async function runChange(
  tx: TransactionClient,
  table: MasterTable,
  result: SaveResult,
  change: RowChangeKind,
  index: number,
  row: WrittenRow,
  statement: () => Promise<number>,
): Promise<number | undefined> {
  await tx.$executeRawUnsafe('SAVEPOINT row_change');
  try {
    const count = await statement();
    await tx.$executeRawUnsafe('RELEASE SAVEPOINT row_change');
    if (count === 0 && change !== 'insert') {
      result.rowErrors.push({
        change,
        index,
        column: null,
        code: 'ROW_CONFLICT',
        message: 'This row was changed or deleted by someone else since it was read; reload it.',
        details: { kind: 'CONFLICT' },
      });
      return undefined;
    }
    return count;
  } catch (error) {
    const postgres = postgresErrorOf(error);
    if (!postgres) throw error;
    await tx.$executeRawUnsafe('ROLLBACK TO SAVEPOINT row_change');
    const violation = await describeViolation(tx, table, postgres, row);
    if (!violation)
      throw new Error(`Unexpected database error ${postgres.code}: ${postgres.message}`);
    result.rowErrors.push({ change, index, ...violation });
    return undefined;
  }
}
