import type { Queryable } from '@tablelock/db';
import { MasterDataError } from '../masterDataError';
import { readMasterTable, requireColumn, type TableColumn } from '../tableColumns';

/**
 * Types whose values a row scope can name as text and find again: the text written is the only
 * one the type reads back as that value. Not floats, numerics (1.0 and 1.00), timestamps (the
 * session's time zone), json or arrays.
 */
const SCOPE_TYPES =
  /^(text|character varying(\(\d+\))?|character(\(\d+\))?|citext|smallint|integer|bigint|date|uuid|boolean)$/;

/** Whether row scopes can name values of `column`. */
function namesRowScopes(column: TableColumn): boolean {
  return SCOPE_TYPES.test(column.dataType);
}

/**
 * Refuses a row-lock column an admin picks unless `table` has it and its values can be named as
 * text (a string, an integer, a date, a uuid, a boolean).
 */
export async function requireRowLockColumn(
  db: Queryable,
  schema: string,
  tableName: string,
  columnName: string,
): Promise<void> {
  const column = requireColumn(await readMasterTable(db, schema, tableName), columnName);
  if (!namesRowScopes(column)) {
    throw new MasterDataError(
      'BAD_USER_INPUT',
      `${tableName}.${columnName} is ${column.dataType}, whose values cannot be compared as text. A row-lock column holds text, whole numbers, dates, uuids or booleans.`,
    );
  }
}
