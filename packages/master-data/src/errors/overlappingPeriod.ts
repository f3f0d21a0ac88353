import { Prisma, type Queryable } from '@tablelock/db';
import type { RowValues } from '../readRows';
import { columnRef, keyCondition, typedValue } from '../sqlFragments';
import { type MasterTable, requireColumn } from '../tableColumns';
import { periodText } from './periodText';
import { oneOf, rowName } from './rowName';
import type { ViolatedConstraint } from './violatedConstraint';

/** Postgres's exclusion violation: what a key WITHOUT OVERLAPS raises for an overlapping period. */
export const EXCLUSION_SQLSTATE = '23P01';

/**
 * The refusal of a row whose period overlaps another row's with the same other key columns,
 * naming that row and its period: `product 12 already has a product_price for 2025-07-01 –
 * 2025-12-31`. The period is the constraint's last column.
 */
export async function overlappingPeriod(
  db: Queryable,
  table: MasterTable,
  constraint: ViolatedConstraint,
  values: RowValues,
  ownKey: RowValues | undefined,
) {
  const columns = constraint.columns.map((name) => requireColumn(table, name));
  const period = columns.at(-1);
  const others = columns.slice(0, -1);
  const notOwnRow = ownKey
    ? Prisma.sql`AND NOT (${keyCondition(table.primaryKey, ownKey)})`
    : Prisma.empty;
  const conditions = columns.map((column) =>
    column === period
      ? Prisma.sql`${columnRef(column)} && ${typedValue(column, values[column.name] ?? null)}`
      : Prisma.sql`${columnRef(column)} = ${typedValue(column, values[column.name] ?? null)}`,
  );
  const [other] = period
    ? await db.$queryRaw<{ period: string }[]>`
        SELECT ${columnRef(period)}::text AS period FROM ${Prisma.raw(table.qualifiedName)}
        WHERE ${Prisma.join(conditions, ' AND ')} ${notOwnRow}
        ORDER BY ${columnRef(period)} LIMIT 1`
    : [];
  const row = others.map((column) => values[column.name] ?? '').join(', ');
  // Prices of product 12 belong to that product: a single other key column that references a
  // table names the row people think of as having the periods.
  const owner = others.length === 1 && others[0]?.references ? others[0].references : table.name;
  const column = period?.name ?? null;
  const given = values[column ?? ''] ?? '';
  return {
    code: 'OVERLAPPING_PERIOD' as const,
    column,
    message: `${rowName(owner, row)} already has ${owner === table.name ? 'a row' : oneOf(table.name)} for ${periodText(other?.period ?? given)}.`,
    details: {
      kind: 'OVERLAPPING_PERIOD' as const,
      ...(column ? { column } : {}),
      value: given,
      table: table.name,
      row,
      ...(other ? { period: other.period } : {}),
      constraint: constraint.name,
    },
  };
}
