import type { Queryable } from '@tablelock/db';
import { MasterDataError } from '../masterDataError';
import {
  type MasterTable,
  readMasterTable,
  requireColumn,
  type TableColumn,
} from '../tableColumns';

/** Refuses a label column an admin picks unless `table` has it and it holds text. */
export async function requireLabelColumn(
  db: Queryable,
  schema: string,
  tableName: string,
  columnName: string,
): Promise<void> {
  const column = requireColumn(await readMasterTable(db, schema, tableName), columnName);
  if (column.kind !== 'text') {
    throw new MasterDataError(
      'BAD_USER_INPUT',
      `${tableName}.${columnName} is not a text column. A label column must hold text.`,
    );
  }
}

/**
 * The column shown beside `table`'s keys: the one its policy names while it is still a text
 * column (a later ALTER TABLE may have dropped or retyped it), else its first text column
 * other than the key.
 */
export async function labelColumnOf(
  db: Queryable,
  table: MasterTable,
  keyName: string,
): Promise<TableColumn | null> {
  const policy = await db.tablePolicy.findUnique({
    where: { tableName: table.name },
    select: { labelColumn: true },
  });
  const picked = table.columns.find(
    (column) => column.name === policy?.labelColumn && column.kind === 'text',
  );
  return (
    picked ??
    table.columns.find((column) => column.kind === 'text' && column.name !== keyName) ??
    null
  );
}
