import type { Queryable } from '@tablelock/db';
import { type ForeignKey, readForeignKeys } from '../foreignKeys';
import { MasterDataError } from '../masterDataError';
import {
  type MasterTable,
  readMasterTable,
  requireColumn,
  type TableColumn,
} from '../tableColumns';
import { labelColumnOf } from './labelColumn';

/** What a foreign-key column points at: the referenced table, its key, and the label to show. */
export interface ReferenceTarget {
  table: MasterTable;
  key: TableColumn;
  /** Its policy's label column, else its first text column other than the key; null: none. */
  label: TableColumn | null;
}

/**
 * The target of `column`'s foreign key. Only single-column keys have value help: a value of
 * one column cannot name a row of a composite key. A PERIOD foreign key of one column and its
 * period counts as one on that column: its value names the rows whose periods cover the row's,
 * and value help offers what that column of the referenced table itself references.
 */
export async function readReferenceTarget(
  db: Queryable,
  schema: string,
  table: MasterTable,
  columnName: string,
): Promise<ReferenceTarget> {
  requireColumn(table, columnName);
  const foreignKey = singleColumnKeys(await readForeignKeys(db, table)).get(columnName);
  if (!foreignKey) {
    throw new MasterDataError(
      'BAD_USER_INPUT',
      `${table.name}.${columnName} is not a single-column foreign key.`,
    );
  }
  return targetOf(db, schema, foreignKey);
}

/** The target of every single-column foreign key of `table`, by column, from one catalog read. */
export async function readReferenceTargets(
  db: Queryable,
  schema: string,
  table: MasterTable,
): Promise<Map<string, ReferenceTarget>> {
  const keys = [...singleColumnKeys(await readForeignKeys(db, table))];
  const targets = await Promise.all(
    keys.map(([, foreignKey]) => targetOf(db, schema, foreignKey).catch(() => null)),
  );
  return new Map(
    keys.flatMap(([column], index) => {
      const target = targets[index];
      return target ? [[column, target] as const] : [];
    }),
  );
}

function singleColumnKeys(foreignKeys: ForeignKey[]): Map<string, ForeignKey> {
  const byColumn = new Map<string, ForeignKey>();
  for (const key of foreignKeys) {
    const [column] = key.columns;
    const scalarColumns = key.period ? key.columns.length - 1 : key.columns.length;
    if (scalarColumns === 1 && column !== undefined && !byColumn.has(column)) {
      byColumn.set(column, key);
    }
  }
  return byColumn;
}

async function targetOf(
  db: Queryable,
  schema: string,
  foreignKey: ForeignKey,
): Promise<ReferenceTarget> {
  const target = await readMasterTable(db, schema, foreignKey.targetTable);
  const keyName = foreignKey.targetColumns[0] ?? '';
  if (foreignKey.period) {
    const further = singleColumnKeys(await readForeignKeys(db, target)).get(keyName);
    if (!further || further.period) {
      throw new MasterDataError(
        'BAD_USER_INPUT',
        `${target.name}.${keyName} references no table of its own to offer values from.`,
      );
    }
    return targetOf(db, schema, further);
  }
  return {
    table: target,
    key: requireColumn(target, keyName),
    label: await labelColumnOf(db, target, keyName),
  };
}
