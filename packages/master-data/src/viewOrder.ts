import { Prisma } from '@tablelock/db';
import type { RowView, SortDirection } from './rowView';
import { columnRef } from './sqlFragments';
import { type MasterTable, requireColumn, type TableColumn } from './tableColumns';

export interface OrderTerm {
  column: TableColumn;
  direction: SortDirection;
}

/**
 * The view's sort with the primary key after it, so that the order is total: pages neither
 * repeat nor skip rows, and a row's values in these columns name its place (a cursor).
 */
export function viewOrder(table: MasterTable, sort: RowView['sort']): OrderTerm[] {
  const sorted = sort.map(({ column, direction }) => ({
    column: requireColumn(table, column),
    direction,
  }));
  const tiebreak = table.primaryKey
    .filter((key) => !sorted.some((term) => term.column.name === key.name))
    .map((column) => ({ column, direction: 'asc' as const }));
  return [...sorted, ...tiebreak];
}

export const flipped = (direction: SortDirection): SortDirection =>
  direction === 'asc' ? 'desc' : 'asc';

/**
 * `ORDER BY`, or read backwards. Postgres puts NULLs last going up and first going down, so
 * flipping every direction is exactly the reverse order.
 */
export function orderBy(terms: OrderTerm[], backwards = false): Prisma.Sql {
  if (terms.length === 0) return Prisma.empty;
  const parts = terms.map(({ column, direction }) => {
    const way = backwards ? flipped(direction) : direction;
    return Prisma.sql`${columnRef(column)} ${Prisma.raw(way === 'asc' ? 'ASC' : 'DESC')}`;
  });
  return Prisma.sql`ORDER BY ${Prisma.join(parts)}`;
}
