import { Prisma } from '@tablelock/db';
import { columnRef } from '../sqlFragments';
import type { MasterTable } from '../tableColumns';

/**
 * The table at another time, as changes laid over today's rows: SQL common table expressions
 * that end in `overlay(row_id, key, present, fresh, cells)`, one row per row that differs from
 * today. `key` is the row's primary key as `{column: text}`; `present` whether the row exists
 * then; `fresh` whether `cells` holds every column (a row inserted, or rebuilt from a deleted
 * row's old image), else only the columns that differ and the rest are today's.
 */
export interface RowOverlay {
  ctes: Prisma.Sql;
  /**
   * A jsonb expression listing the scheduled cell changes of the page's row named by
   * `page_source."__tablelock_row"` (null for rows without); null when the overlay has none.
   */
  cellChanges: Prisma.Sql | null;
}

/** Today's row `t` is the overlay's row `o`: its key, cast to the key columns' types. */
export function overlayKeyMatch(table: MasterTable): Prisma.Sql {
  return Prisma.join(
    table.primaryKey.map(
      (column) =>
        Prisma.sql`t.${columnRef(column)} = (o.key ->> ${column.name})::${Prisma.raw(column.dataType)}`,
    ),
    ' AND ',
  );
}

/**
 * Text that names a row by a key object `{column: text}`, the same for the same key whatever its
 * source; null when a key column is missing (a new row whose key the database fills).
 */
export function overlayRowId(table: MasterTable, key: Prisma.Sql): Prisma.Sql {
  const parts = table.primaryKey.map(
    (column) => Prisma.sql`${column.name}::text, (${key}) ->> ${column.name}`,
  );
  const complete = table.primaryKey.map(
    (column) => Prisma.sql`(${key}) ->> ${column.name} IS NOT NULL`,
  );
  return Prisma.sql`CASE WHEN ${Prisma.join(complete, ' AND ')}
    THEN jsonb_build_object(${Prisma.join(parts)})::text END`;
}
