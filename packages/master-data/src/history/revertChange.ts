import { Prisma, type Queryable, type TransactionClient } from '@tablelock/db';
import { parseFencingToken } from '@tablelock/lock';
import { describeViolation, type RowViolation } from '../errors/describeViolation';
import { fencedSave } from '../fencedSave';
import { readForeignKeys } from '../foreignKeys';
import { currentChangeSetId } from '../guard/ownWrite';
import { MasterDataError } from '../masterDataError';
import { postgresErrorOf } from '../postgresError';
import type { RowValues } from '../readRows';
import { columnRef, columnsAsJson, keyCondition, typedValue } from '../sqlFragments';
import { type MasterTable, readMasterTable, requireColumn } from '../tableColumns';
import { CHANGE_SET_COLUMNS, type ChangeSetRow, changeSetRecord } from './changeSetColumns';
import type { ChangeSetRecord, RecordedRowChange, RowOperation } from './historyRecords';
import { historyValues } from './historyValues';
import { planRevert, type RevertConflict, type RevertStep, type SelfReference } from './planRevert';
import { rowKeyId } from './rowKey';

export interface RevertRequest {
  schema: string;
  tableName: string;
  changeId: string;
  /** Who reverts: must hold the table's lock. */
  holder: string;
  token: string;
  /** The keys to revert; null for every row nobody changed since. */
  rows: Record<string, unknown>[] | null;
  dryRun: boolean;
}

export interface RevertRowError extends RowViolation {
  key: RowValues;
}

export type RevertConflictRecord = RevertConflict<ChangeSetRecord> & { message: string };

export interface RevertResult {
  changeId: string;
  dryRun: boolean;
  reverted: boolean;
  revertChangeId: string | null;
  rows: RevertStep[];
  conflicts: RevertConflictRecord[];
  rowErrors: RevertRowError[];
}

/** Row by row, each under a savepoint: a revert of more rows is refused (pick rows instead). */
export const MAX_REVERT_ROWS = 10_000;

/**
 * Reverts one change of a table, or chosen rows of it, through the fenced save: the token is
 * checked, the rows are locked, the plan is made on what the history and the table say inside
 * the transaction, and it is written (as a `revert` of the change) only if no row fails; a dry
 * run writes it the same way and rolls it back, so that it reports what the database would
 * refuse (foreign keys included) before anything is written.
 */
export async function revertChange(db: Queryable, request: RevertRequest): Promise<RevertResult> {
  const { schema, tableName, changeId, holder } = request;
  const token = parseFencingToken(request.token);
  if (!/^[1-9]\d{0,18}$/.test(changeId)) {
    throw new MasterDataError('NOT_FOUND', `No change has the id ${changeId}.`);
  }
  const table = await readMasterTable(db, schema, tableName);
  const picked = request.rows?.map((key) => checkedKey(table, key)) ?? null;
  let outcome: RevertResult | undefined;
  await fencedSave(
    db,
    {
      tableName,
      holder,
      token,
      reason: `revert of change ${changeId}`,
      details: { revertsChangeId: changeId },
      kind: 'revert',
      revertsChangeSetId: changeId,
    },
    async (tx) => {
      const result = await revertInTransaction(tx, table, changeId, picked, request.dryRun);
      outcome = result;
      const counted = (action: RevertStep['action']) =>
        result.rows.filter((row) => row.action === action).length;
      return {
        saved: result.reverted,
        inserted: counted('insert'),
        updated: counted('update'),
        deleted: counted('delete'),
      };
    },
  );
  return outcome as RevertResult;
}

async function revertInTransaction(
  tx: TransactionClient,
  table: MasterTable,
  changeId: string,
  picked: RowValues[] | null,
  dryRun: boolean,
): Promise<RevertResult> {
  await readChange(tx, table, changeId);
  const changes = await readRecordedChanges(tx, table.name, changeId);
  const existsNow = await lockCurrentRows(tx, table, changeId);
  const laterChanges = await readLaterChanges(tx, table.name, changeId);
  const plan = planRevert({
    changes,
    laterChanges,
    existsNow,
    picked,
    selfReferences: await selfReferences(tx, table),
  });
  const conflicts = plan.conflicts.map((conflict) => ({
    ...conflict,
    message: conflictMessage(conflict),
  }));
  const result = {
    changeId,
    rows: plan.steps,
    conflicts,
    revertChangeId: null,
  };
  await tx.$executeRawUnsafe('SAVEPOINT revert_change');
  const rowErrors: RevertRowError[] = [];
  for (const step of plan.steps) {
    const error = await writeStep(tx, table, step);
    if (error) rowErrors.push(error);
  }
  if (dryRun || rowErrors.length > 0 || plan.steps.length === 0) {
    await tx.$executeRawUnsafe('ROLLBACK TO SAVEPOINT revert_change');
    return { ...result, dryRun: true, reverted: false, rowErrors };
  }
  const revertChangeId = await currentChangeSetId(tx, table.name);
  return { ...result, dryRun: false, reverted: true, revertChangeId, rowErrors };
}

async function readChange(tx: TransactionClient, table: MasterTable, changeId: string) {
  const [row] = await tx.$queryRaw<ChangeSetRow[]>`
    SELECT ${CHANGE_SET_COLUMNS} FROM tablelock.change_set AS cs WHERE cs.id = ${changeId}::bigint`;
  if (!row) throw new MasterDataError('NOT_FOUND', `No change has the id ${changeId}.`);
  if (row.tableName !== table.name) {
    throw new MasterDataError(
      'NOT_FOUND',
      `Change ${changeId} is a change of ${row.tableName}, not of ${table.name}.`,
    );
  }
  return changeSetRecord(row);
}

async function readRecordedChanges(
  tx: TransactionClient,
  tableName: string,
  changeId: string,
): Promise<RecordedRowChange[]> {
  const rows = await tx.$queryRaw<
    { id: string; key: unknown; operation: RowOperation; oldValues: unknown; newValues: unknown }[]
  >`
    SELECT id::text, row_key AS key, operation, old_values AS "oldValues", new_values AS "newValues"
    FROM tablelock.row_changes_of_change_set(${changeId}::bigint, 0, ${MAX_REVERT_ROWS + 1}::int)
    WHERE table_name = ${tableName}
    ORDER BY id
    LIMIT ${MAX_REVERT_ROWS + 1}`;
  if (rows.length > MAX_REVERT_ROWS) {
    throw new MasterDataError(
      'BAD_USER_INPUT',
      `Change ${changeId} touched more than ${MAX_REVERT_ROWS} rows: revert chosen rows of it.`,
    );
  }
  return rows.map((row) => ({
    id: row.id,
    key: historyValues(row.key) ?? {},
    operation: row.operation,
    oldValues: historyValues(row.oldValues),
    newValues: historyValues(row.newValues),
  }));
}

/** Locks the rows the change touched that exist now, until the revert ends; their key ids. */
async function lockCurrentRows(
  tx: TransactionClient,
  table: MasterTable,
  changeId: string,
): Promise<Set<string>> {
  const matches = table.primaryKey.map(
    (column) =>
      Prisma.sql`t.${columnRef(column)} = (rc.row_key ->> ${column.name})::${Prisma.raw(column.dataType)}`,
  );
  const rows = await tx.$queryRaw<{ key: unknown }[]>`
    SELECT ${columnsAsJson(table.primaryKey)} AS key
    FROM ${Prisma.raw(table.qualifiedName)} AS t
    WHERE EXISTS (SELECT 1 FROM tablelock.row_keys_of_change_set(${changeId}::bigint) AS rc
                  WHERE ${Prisma.join(matches, ' AND ')})
    FOR UPDATE OF t`;
  return new Set(rows.map((row) => rowKeyId(historyValues(row.key) ?? {})));
}

/** For each row of the change touched again later: the first change that did. */
async function readLaterChanges(
  tx: TransactionClient,
  tableName: string,
  changeId: string,
): Promise<Map<string, ChangeSetRecord>> {
  const rows = await tx.$queryRaw<(ChangeSetRow & { rowKey: unknown })[]>`
    WITH own AS (
      SELECT row_key, max(id) AS last FROM tablelock.row_keys_of_change_set(${changeId}::bigint)
      GROUP BY row_key
    )
    SELECT DISTINCT ON (rc.row_key) rc.row_key AS "rowKey", ${CHANGE_SET_COLUMNS}
    FROM own
    CROSS JOIN LATERAL tablelock.row_changes_of_row(${tableName}, own.row_key) AS rc
    JOIN tablelock.change_set AS cs ON cs.id = rc.change_set_id
    WHERE rc.id > own.last AND rc.change_set_id <> ${changeId}::bigint
    ORDER BY rc.row_key, rc.id`;
  return new Map(
    rows.map(({ rowKey, ...change }) => [
      rowKeyId(historyValues(rowKey) ?? {}),
      changeSetRecord(change),
    ]),
  );
}

async function selfReferences(tx: TransactionClient, table: MasterTable): Promise<SelfReference[]> {
  const keys = await readForeignKeys(tx, table);
  return keys
    .filter((key) => key.targetQualifiedName === table.qualifiedName)
    .map(({ columns, targetColumns }) => ({ columns, targetColumns }));
}

async function writeStep(
  tx: TransactionClient,
  table: MasterTable,
  step: RevertStep,
): Promise<RevertRowError | null> {
  const target = Prisma.raw(table.qualifiedName);
  const entries = Object.entries(step.values ?? {}).map(([name, value]) => ({
    column: requireColumn(table, name),
    value,
  }));
  await tx.$executeRawUnsafe('SAVEPOINT revert_row');
  try {
    if (step.action === 'delete') {
      await tx.$executeRaw`DELETE FROM ${target} WHERE ${keyCondition(table.primaryKey, step.key)}`;
    } else if (step.action === 'update') {
      const assignments = entries.map(
        ({ column, value }) => Prisma.sql`${columnRef(column)} = ${typedValue(column, value)}`,
      );
      await tx.$executeRaw`UPDATE ${target} SET ${Prisma.join(assignments)}
        WHERE ${keyCondition(table.primaryKey, step.key)}`;
    } else {
      // The row comes back with its own key, identity columns included.
      await tx.$executeRaw`INSERT INTO ${target}
        (${Prisma.join(entries.map(({ column }) => columnRef(column)))}) OVERRIDING SYSTEM VALUE
        VALUES (${Prisma.join(entries.map(({ column, value }) => typedValue(column, value)))})`;
    }
    await tx.$executeRawUnsafe('RELEASE SAVEPOINT revert_row');
    return null;
  } catch (error) {
    const postgres = postgresErrorOf(error);
    if (!postgres) throw error;
    await tx.$executeRawUnsafe('ROLLBACK TO SAVEPOINT revert_row');
    const violation = await describeViolation(
      tx,
      table,
      postgres,
      step.action === 'delete' ? { key: step.key } : { key: step.key, values: step.values ?? {} },
    );
    if (!violation) throw error;
    return { key: step.key, ...violation };
  }
}

function conflictMessage(conflict: RevertConflict<ChangeSetRecord>): string {
  if (conflict.later) {
    const who = conflict.later.actor ?? conflict.later.dbRole;
    return `Changed again by ${who} in change ${conflict.later.id}.`;
  }
  return conflict.reason === 'goneSince'
    ? 'The row was deleted since.'
    : 'A row with this key exists again.';
}

/** A key with exactly the table's primary key columns, as text; else BAD_USER_INPUT. */
function checkedKey(table: MasterTable, key: Record<string, unknown>): RowValues {
  const values = historyValues(key) ?? {};
  const columns = table.primaryKey.map((column) => column.name);
  if (Object.keys(values).length !== columns.length || columns.some((c) => !(c in values))) {
    throw new MasterDataError(
      'BAD_USER_INPUT',
      `A row key of ${table.name} has exactly the columns ${columns.join(', ')}.`,
    );
  }
  return values;
}
