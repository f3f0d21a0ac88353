import { Prisma, quoteIdentifier } from '@tablelock/db';
import type { TableColumn } from './tableColumns';

/** The column's quoted name, for SQL text. */
export const columnRef = (column: TableColumn) => Prisma.raw(quoteIdentifier(column.name));

/** A text value as a parameter, cast by the database to the column's type. */
export const typedValue = (column: TableColumn, value: string | null) =>
  Prisma.sql`${value}::${Prisma.raw(column.dataType)}`;

// jsonb_build_object takes at most 100 arguments (50 columns): wide tables are built in parts.
const COLUMNS_PER_OBJECT = 40;

/** `{column: value as text}` for the given columns, as one jsonb expression. */
export function columnsAsJson(columns: TableColumn[]): Prisma.Sql {
  if (columns.length === 0) return Prisma.sql`'{}'::jsonb`;
  const parts: Prisma.Sql[] = [];
  for (let start = 0; start < columns.length; start += COLUMNS_PER_OBJECT) {
    const pairs = columns
      .slice(start, start + COLUMNS_PER_OBJECT)
      .map((column) => Prisma.sql`${column.name}::text, ${columnRef(column)}::text`);
    parts.push(Prisma.sql`jsonb_build_object(${Prisma.join(pairs)})`);
  }
  return Prisma.join(parts, ' || ');
}

/** `pk1 = $1::type AND pk2 = $2::type` for a row key given as `{column: text}`. */
export function keyCondition(primaryKey: TableColumn[], key: Record<string, string | null>) {
  return Prisma.join(
    primaryKey.map(
      (column) =>
        Prisma.sql`${columnRef(column)} = ${typedValue(column, key[column.name] ?? null)}`,
    ),
    ' AND ',
  );
}
