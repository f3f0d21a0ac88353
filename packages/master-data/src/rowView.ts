import { Prisma } from '@tablelock/db';
import { z } from 'zod';
import { MasterDataError } from './masterDataError';
import { columnRef, typedValue } from './sqlFragments';
import { type MasterTable, requireColumn, type TableColumn } from './tableColumns';

export type FilterOperator =
  | 'equals'
  | 'notEquals'
  | 'contains'
  | 'startsWith'
  | 'lessThan'
  | 'lessThanOrEqual'
  | 'greaterThan'
  | 'greaterThanOrEqual'
  | 'isNull'
  | 'isNotNull';

export type SortDirection = 'asc' | 'desc';

/** Which rows of a table and in what order: what a grid shows, a page reads and an export writes. */
export interface RowView {
  sort: { column: string; direction: SortDirection }[];
  filter: { column: string; operator: FilterOperator; value?: string | null }[];
}

export const rowViewShape = {
  sort: z.array(z.object({ column: z.string(), direction: z.enum(['asc', 'desc']) })).max(10),
  filter: z
    .array(z.object({ column: z.string(), operator: z.string(), value: z.string().nullish() }))
    .max(20),
};

const COMPARISONS: Partial<Record<FilterOperator, string>> = {
  equals: '=',
  notEquals: '<>',
  lessThan: '<',
  lessThanOrEqual: '<=',
  greaterThan: '>',
  greaterThanOrEqual: '>=',
};

/** The view's filters as SQL conditions (all must hold); columns checked against the catalog. */
export function filterConditions(table: MasterTable, filters: RowView['filter']): Prisma.Sql[] {
  return filters.map(({ column: name, operator, value }) =>
    condition(requireColumn(table, name), operator, value ?? null),
  );
}

/** `WHERE a AND b`, or nothing for no conditions. */
export const whereAll = (conditions: Prisma.Sql[]): Prisma.Sql =>
  conditions.length === 0 ? Prisma.empty : Prisma.sql`WHERE ${Prisma.join(conditions, ' AND ')}`;

function condition(column: TableColumn, operator: FilterOperator, value: string | null) {
  const ref = columnRef(column);
  if (operator === 'isNull') return Prisma.sql`${ref} IS NULL`;
  if (operator === 'isNotNull') return Prisma.sql`${ref} IS NOT NULL`;
  if (value === null) {
    throw new MasterDataError(
      'BAD_USER_INPUT',
      `The ${operator} filter on ${column.name} needs a value.`,
    );
  }
  if (operator === 'contains' || operator === 'startsWith') {
    const escaped = value.replace(/[\\%_]/g, (char) => `\\${char}`);
    const pattern = operator === 'contains' ? `%${escaped}%` : `${escaped}%`;
    return Prisma.sql`${ref}::text ILIKE ${pattern}`;
  }
  const comparison = COMPARISONS[operator];
  if (!comparison)
    throw new MasterDataError('BAD_USER_INPUT', `Unknown filter operator ${operator}.`);
  return Prisma.sql`${ref} ${Prisma.raw(comparison)} ${typedValue(column, value)}`;
}
