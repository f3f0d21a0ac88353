import { Prisma, type Queryable, quoteIdentifier } from '@tablelock/db';
import { isDataException, type PostgresError } from '../postgresError';
import type { RowValues } from '../readRows';
import { columnRef, columnsAsJson, keyCondition, typedValue } from '../sqlFragments';
import { type MasterTable, requireColumn } from '../tableColumns';
import { checkRuleSentence, readCheckRule } from './checkRule';
import { OUT_OF_SCOPE_SQLSTATE, outOfScope } from './outOfScope';
import { EXCLUSION_SQLSTATE, overlappingPeriod } from './overlappingPeriod';
import type { RowErrorDetails } from './rowErrorDetails';
import { countOf, oneOf, rowName } from './rowName';
import {
  constraintNameIn,
  readViolatedConstraint,
  type ViolatedConstraint,
} from './violatedConstraint';

export type ViolationCode =
  | 'INVALID_VALUE'
  | 'NOT_NULL'
  | 'UNIQUE'
  | 'FOREIGN_KEY'
  | 'CHECK'
  | 'OVERLAPPING_PERIOD'
  | 'OUT_OF_SCOPE';

/** A database refusal of one row, said for people: what, where, and the facts behind it. */
export interface RowViolation {
  code: ViolationCode;
  column: string | null;
  message: string;
  details: RowErrorDetails;
}

/** The row a statement wrote or deleted: its key (updates, deletes) and the values it gave (none for a delete). */
export interface WrittenRow {
  key?: RowValues;
  values?: RowValues;
}

const CODE_BY_SQLSTATE: Record<string, ViolationCode> = {
  '23502': 'NOT_NULL',
  '23505': 'UNIQUE',
  '23503': 'FOREIGN_KEY',
  '23514': 'CHECK',
  [EXCLUSION_SQLSTATE]: 'OVERLAPPING_PERIOD',
};

const joined = (values: (string | null | undefined)[]) => values.map((v) => v ?? '').join(', ');

/**
 * Says why Postgres refused to write `row` of `table`, or undefined for an error that is no
 * refusal of the row's values (a bug, or the database's trouble). Runs queries: call it
 * outside the failed statement's transaction state (after ROLLBACK TO SAVEPOINT). Saves,
 * imports and reverts all say it this way.
 */
export async function describeViolation(
  db: Queryable,
  table: MasterTable,
  error: PostgresError,
  row: WrittenRow,
): Promise<RowViolation | undefined> {
  if (error.code === OUT_OF_SCOPE_SQLSTATE) return outOfScope(error);
  const code =
    CODE_BY_SQLSTATE[error.code] ?? (isDataException(error) ? 'INVALID_VALUE' : undefined);
  if (!code) return undefined;
  if (code === 'INVALID_VALUE') return invalidValue(db, table, error, row.values ?? {});
  if (code === 'NOT_NULL') {
    const column = /column "((?:[^"]|"")+)"/.exec(error.message)?.[1] ?? null;
    return {
      code,
      column,
      message: `${column ?? 'A column'} may not be empty.`,
      details: { kind: 'NOT_NULL', ...(column ? { column } : {}) },
    };
  }
  const name = error.constraint ?? constraintNameIn(error.message);
  const constraint = name ? await readViolatedConstraint(db, table.qualifiedName, name) : undefined;
  if (!constraint)
    return { code, column: null, message: error.message, details: { kind: 'CHECK' } };
  // A row that other rows point at, in another table or (a delete) in its own.
  if (code === 'FOREIGN_KEY' && (constraint.table !== table.name || row.values === undefined)) {
    return inUse(db, table, constraint, row.key ?? {});
  }
  const values = await writtenValues(db, table, row);
  if (code === 'FOREIGN_KEY') return missingReference(constraint, values);
  if (code === 'UNIQUE') return duplicate(db, table, constraint, values, row.key);
  if (code === 'OVERLAPPING_PERIOD') {
    return overlappingPeriod(db, table, constraint, values, row.key);
  }
  return check(constraint, values);
}

/** The row's values after the write: those given over the row's values now. */
async function writtenValues(db: Queryable, table: MasterTable, row: WrittenRow) {
  if (!row.key) return row.values ?? {};
  const [current] = await db.$queryRaw<{ values: RowValues }[]>`
    SELECT ${columnsAsJson(table.columns)} AS "values" FROM ${Prisma.raw(table.qualifiedName)}
    WHERE ${keyCondition(table.primaryKey, row.key)}`;
  return { ...current?.values, ...row.values };
}

async function invalidValue(
  db: Queryable,
  table: MasterTable,
  error: PostgresError,
  values: RowValues,
): Promise<RowViolation> {
  const given = table.columns.filter((column) => values[column.name] != null);
  const [bad] = await db.$queryRaw<{ column: string; value: string; message: string }[]>`
    SELECT given.name AS column, given.value, (pg_input_error_info(given.value, given.type)).message
    FROM unnest(${given.map((c) => c.name)}::text[], ${given.map((c) => values[c.name])}::text[],
                ${given.map((c) => c.dataType)}::text[]) AS given(name, value, type)
    WHERE NOT pg_input_is_valid(given.value, given.type)
    LIMIT 1`;
  if (!bad)
    return {
      code: 'INVALID_VALUE',
      column: null,
      message: error.message,
      details: { kind: 'INVALID_VALUE' },
    };
  return {
    code: 'INVALID_VALUE',
    column: bad.column,
    message: `${bad.column}: ${bad.message}.`,
    details: { kind: 'INVALID_VALUE', column: bad.column, value: bad.value },
  };
}

function missingReference(constraint: ViolatedConstraint, values: RowValues): RowViolation {
  const target = constraint.targetTable ?? '';
  const value = joined(constraint.columns.map((name) => values[name]));
  const targetColumn = constraint.targetColumns.join(', ');
  return {
    code: 'FOREIGN_KEY',
    column: constraint.columns[0] ?? null,
    message: `${value} is not ${oneOf(target)} (${target}.${targetColumn}).`,
    details: {
      kind: 'MISSING_REFERENCE',
      ...(constraint.columns[0] ? { column: constraint.columns[0] } : {}),
      value,
      table: target,
      targetColumn,
      constraint: constraint.name,
    },
  };
}

const columnsMatch = (columns: string[], values: RowValues) =>
  Prisma.join(
    columns.map(
      (name) =>
        Prisma.sql`${Prisma.raw(quoteIdentifier(name))}::text = ${values[name] ?? null}::text`,
    ),
    ' AND ',
  );

async function inUse(
  db: Queryable,
  table: MasterTable,
  constraint: ViolatedConstraint,
  key: RowValues,
): Promise<RowViolation> {
  const [referenced] = await db.$queryRaw<{ values: RowValues }[]>`
    SELECT jsonb_build_object(${Prisma.join(
      constraint.targetColumns.map(
        (name) => Prisma.sql`${name}::text, ${Prisma.raw(quoteIdentifier(name))}::text`,
      ),
    )}) AS "values"
    FROM ${Prisma.raw(table.qualifiedName)} WHERE ${keyCondition(table.primaryKey, key)}`;
  const referencedValues = Object.fromEntries(
    constraint.columns.map((name, index) => [
      name,
      referenced?.values[constraint.targetColumns[index] ?? ''] ?? null,
    ]),
  );
  const [counted] = await db.$queryRaw<{ count: number }[]>`
    SELECT count(*)::int AS count FROM ${Prisma.raw(constraint.qualifiedTable)}
    WHERE ${columnsMatch(constraint.columns, referencedValues)}`;
  const count = counted?.count ?? 0;
  const keyText = joined(table.primaryKey.map((column) => key[column.name]));
  return {
    code: 'FOREIGN_KEY',
    column: null,
    message: `${rowName(table.name, keyText)} is still used by ${countOf(constraint.table, count)}.`,
    details: {
      kind: 'IN_USE',
      table: constraint.table,
      row: keyText,
      count,
      constraint: constraint.name,
    },
  };
}

async function duplicate(
  db: Queryable,
  table: MasterTable,
  constraint: ViolatedConstraint,
  values: RowValues,
  ownKey: RowValues | undefined,
): Promise<RowViolation> {
  const value = joined(constraint.columns.map((name) => values[name]));
  const notOwnRow = ownKey
    ? Prisma.sql`AND NOT (${keyCondition(table.primaryKey, ownKey)})`
    : Prisma.empty;
  const [holder] = await db.$queryRaw<{ key: string }[]>`
    SELECT concat_ws(', ', ${Prisma.join(
      table.primaryKey.map(
        (column) => Prisma.sql`${Prisma.raw(quoteIdentifier(column.name))}::text`,
      ),
    )}) AS key
    FROM ${Prisma.raw(table.qualifiedName)}
    WHERE ${Prisma.join(
      constraint.columns.map((name) => {
        const column = requireColumn(table, name);
        return Prisma.sql`${columnRef(column)} = ${typedValue(column, values[name] ?? null)}`;
      }),
      ' AND ',
    )} ${notOwnRow} LIMIT 1`;
  const column = constraint.columns[0] ?? null;
  return {
    code: 'UNIQUE',
    column,
    message: holder
      ? `${value} is already used by ${rowName(table.name, holder.key)}.`
      : `${value} is already used by another row of ${table.name}.`,
    details: {
      kind: 'DUPLICATE',
      ...(column ? { column } : {}),
      value,
      table: table.name,
      ...(holder ? { row: holder.key } : {}),
      constraint: constraint.name,
    },
  };
}

function check(constraint: ViolatedConstraint, values: RowValues): RowViolation {
  const rule = readCheckRule(constraint.definition);
  const column = constraint.columns.length === 1 ? (constraint.columns[0] ?? null) : null;
  const value = column ? values[column] : undefined;
  return {
    code: 'CHECK',
    column,
    message: checkRuleSentence(rule),
    details: {
      kind: 'CHECK',
      ...(column ? { column } : {}),
      ...(value != null ? { value } : {}),
      ...('rule' in rule ? { rule: rule.rule } : { ...rule, column: rule.column }),
      constraint: constraint.name,
    },
  };
}
