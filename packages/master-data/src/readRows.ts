import { Prisma, type PrismaClient } from '@tablelock/db';
import { z } from 'zod';
import { MasterDataError } from './masterDataError';
import { isDataException, postgresErrorOf } from './postgresError';
import { columnRef, columnsAsJson, typedValue } from './sqlFragments';
import { type MasterTable, readMasterTable, requireColumn, type TableColumn } from './tableColumns';

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

export interface RowQuery {
  offset: number;
  limit: number;
  sort: { column: string; direction: 'asc' | 'desc' }[];
  filter: { column: string; operator: FilterOperator; value?: string | null }[];
}

export type RowValues = Record<string, string | null>;

export interface MasterRow {
  /** Primary key values by column: how a save names the row. */
  key: RowValues;
  /** `xmin` as read: a save that names an older version is a conflict. */
  version: string;
  values: RowValues;
}

export interface RowPage {
  table: MasterTable;
  rows: MasterRow[];
  total: number;
}

export const MAX_PAGE_SIZE = 500;

const rowQuery = z.object({
  offset: z.number().int().min(0),
  limit: z.number().int().min(1).max(MAX_PAGE_SIZE),
  sort: z.array(z.object({ column: z.string(), direction: z.enum(['asc', 'desc']) })).max(10),
  filter: z
    .array(z.object({ column: z.string(), operator: z.string(), value: z.string().nullish() }))
    .max(20),
});

const COMPARISONS: Partial<Record<FilterOperator, string>> = {
  equals: '=',
  notEquals: '<>',
  lessThan: '<',
  lessThanOrEqual: '<=',
  greaterThan: '>',
  greaterThanOrEqual: '>=',
};

/** A page of rows, sorted and filtered in the database; values as text. */
export async function readRows(
  prisma: PrismaClient,
  schema: string,
  tableName: string,
  query: RowQuery,
): Promise<RowPage> {
  const parsed = rowQuery.safeParse(query);
  if (!parsed.success) throw new MasterDataError('BAD_USER_INPUT', z.prettifyError(parsed.error));
  const table = await readMasterTable(prisma, schema, tableName);
  const where = whereClause(table, query.filter);
  const order = orderClause(table, query.sort);
  const from = Prisma.raw(table.qualifiedName);
  const [rows, [count]] = await Promise.all([
    prisma.$queryRaw<{ key: RowValues; version: string; values: RowValues }[]>`
      SELECT ${columnsAsJson(table.primaryKey)} AS key, xmin::text AS version,
             ${columnsAsJson(table.columns)} AS values
      FROM ${from} ${where} ${order}
      LIMIT ${query.limit} OFFSET ${query.offset}`,
    prisma.$queryRaw<{ total: number }[]>`SELECT count(*)::int AS total FROM ${from} ${where}`,
  ]).catch((error: unknown) => {
    const postgres = postgresErrorOf(error);
    if (postgres && isDataException(postgres)) {
      throw new MasterDataError('BAD_USER_INPUT', `Filter value: ${postgres.message}`);
    }
    throw error;
  });
  return { table, rows, total: count?.total ?? 0 };
}

function whereClause(table: MasterTable, filters: RowQuery['filter']): Prisma.Sql {
  if (filters.length === 0) return Prisma.empty;
  const conditions = filters.map(({ column: name, operator, value }) =>
    condition(requireColumn(table, name), operator, value ?? null),
  );
  return Prisma.sql`WHERE ${Prisma.join(conditions, ' AND ')}`;
}

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

// The primary key ends every order, so that pages neither repeat nor skip rows.
function orderClause(table: MasterTable, sort: RowQuery['sort']): Prisma.Sql {
  const sorted = sort.map(({ column, direction }) => ({
    column: requireColumn(table, column),
    direction,
  }));
  const tiebreak = table.primaryKey
    .filter((key) => !sorted.some((entry) => entry.column.name === key.name))
    .map((column) => ({ column, direction: 'asc' as const }));
  const terms = [...sorted, ...tiebreak].map(
    ({ column, direction }) =>
      Prisma.sql`${columnRef(column)} ${Prisma.raw(direction === 'asc' ? 'ASC' : 'DESC')}`,
  );
  return terms.length > 0 ? Prisma.sql`ORDER BY ${Prisma.join(terms)}` : Prisma.empty;
}
