import { Prisma, type PrismaClient } from '@tablelock/db';
import { z } from 'zod';
import type { RowOverlay } from './asOf/rowOverlay';
import { overlayKeyMatch } from './asOf/rowOverlay';
import { MasterDataError } from './masterDataError';
import { refuseValuesThatDoNotFit } from './postgresError';
import { type CursorValues, decodeCursor, encodeCursor, viewFingerprint } from './rowCursor';
import { filterConditions, type RowView, rowViewShape, whereAll } from './rowView';
import { seekCondition } from './seekCondition';
import { columnRef, columnsAsJson } from './sqlFragments';
import { type MasterTable, readMasterTable } from './tableColumns';
import { type OrderTerm, orderBy, viewOrder } from './viewOrder';

export interface RowQuery extends RowView {
  /** Rows to skip from the start of the view (offset paging); 0 with a cursor. */
  offset: number;
  limit: number;
  /** Keyset paging: the `limit` rows right after the row this cursor names. */
  after?: string | null;
  /** Keyset paging backwards: the `limit` rows right before it, still in the view's order. */
  before?: string | null;
}

export type RowValues = Record<string, string | null>;

export interface MasterRow {
  /** Primary key values by column: how a save names the row. */
  key: RowValues;
  /** `xmin` as read: a save that names an older version is a conflict. */
  version: string;
  values: RowValues;
  /** What scheduled change requests do to its cells, read at a future time; else absent. */
  scheduledChanges?: ScheduledCellChange[];
}

/** One cell a scheduled change request changes: the value before it and after it. */
export interface ScheduledCellChange {
  column: string;
  changeRequestId: string;
  effectiveAt: Date;
  oldValue: string | null;
  newValue: string | null;
}

export interface RowPage {
  table: MasterTable;
  rows: MasterRow[];
  total: number;
  /** Where the first row stands, for the page before it; null without rows or primary key. */
  startCursor: string | null;
  /** Where the last row stands, for the page after it; null without rows or primary key. */
  endCursor: string | null;
}

export const MAX_PAGE_SIZE = 500;

const rowQuery = z
  .object({
    offset: z.number().int().min(0),
    limit: z.number().int().min(1).max(MAX_PAGE_SIZE),
    ...rowViewShape,
    after: z.string().nullish(),
    before: z.string().nullish(),
  })
  .refine((query) => query.after == null || query.before == null, {
    message: 'Give after or before, not both.',
  })
  .refine((query) => query.offset === 0 || (query.after == null && query.before == null), {
    message: 'offset counts from the start of the view: leave it out when paging by cursor.',
  });

/** Which rows of the view one query reads: past a cursor, or at an offset from either end. */
interface PagePlan {
  conditions: Prisma.Sql[];
  backwards: boolean;
  offset: number;
  limit: number;
}

/**
 * A page of rows, sorted and filtered in the database; values as text. Paged by cursor
 * (keyset: as quick deep in the view as at its start) or by offset, which is counted from
 * whichever end of the view is nearer, so the last page is as quick as the first. Either way
 * the sort runs on the row keys alone and only the page's rows are turned into JSON.
 */
export async function readRows(
  prisma: PrismaClient,
  schema: string,
  tableName: string,
  query: RowQuery,
): Promise<RowPage> {
  const table = await readMasterTable(prisma, schema, tableName);
  return readRowsOf(prisma, table, query, null);
}

/** `readRows` of `table`, as it is or (`overlay`) as the overlay makes it: see rowsAsOf. */
export async function readRowsOf(
  prisma: PrismaClient,
  table: MasterTable,
  query: RowQuery,
  overlay: RowOverlay | null,
): Promise<RowPage> {
  const parsed = rowQuery.safeParse(query);
  if (!parsed.success) throw new MasterDataError('BAD_USER_INPUT', z.prettifyError(parsed.error));
  const filters = filterConditions(table, query.filter);
  const order = viewOrder(table, query.sort);
  const fingerprint = viewFingerprint(table, order, query.filter);
  const cursor = query.after ?? query.before;
  const at = cursor == null ? null : cursorPosition(table, cursor, fingerprint, order);
  try {
    const counting = overlay
      ? countOverlaidRows(prisma, table, filters, overlay)
      : countRows(prisma, table, filters);
    const plan: PagePlan = at
      ? {
          conditions: [...filters, seekCondition(order, at, query.before != null)],
          backwards: query.before != null,
          offset: 0,
          limit: query.limit,
        }
      : offsetPlan(filters, query.offset, query.limit, query.offset > 0 ? await counting : null);
    const [rows, total] = await Promise.all([
      overlay
        ? readOverlaidPage(prisma, table, order, plan, overlay)
        : readPage(prisma, table, order, plan),
      counting,
    ]);
    const cursorOf = (row: MasterRow | undefined) =>
      row && table.primaryKey.length > 0
        ? encodeCursor(
            fingerprint,
            order.map(({ column }) => row.values[column.name] ?? null),
          )
        : null;
    return { table, rows, total, startCursor: cursorOf(rows[0]), endCursor: cursorOf(rows.at(-1)) };
  } catch (error) {
    refuseValuesThatDoNotFit(error);
  }
}

function cursorPosition(
  table: MasterTable,
  cursor: string,
  fingerprint: string,
  order: OrderTerm[],
): CursorValues {
  if (table.primaryKey.length === 0) {
    throw new MasterDataError(
      'BAD_USER_INPUT',
      `${table.name} has no primary key, so its rows have no cursor: page it by offset.`,
    );
  }
  return decodeCursor(cursor, fingerprint, order);
}

/** Past the middle of the view, the page is read from the end: fewer rows to skip. */
function offsetPlan(
  conditions: Prisma.Sql[],
  offset: number,
  limit: number,
  total: number | null,
): PagePlan {
  const rowsAfter = total === null ? offset : total - offset - limit;
  if (rowsAfter >= offset) return { conditions, backwards: false, offset, limit };
  return {
    conditions,
    backwards: true,
    offset: Math.max(rowsAfter, 0),
    limit: Math.max(limit + Math.min(rowsAfter, 0), 0),
  };
}

async function countRows(prisma: PrismaClient, table: MasterTable, conditions: Prisma.Sql[]) {
  const [count] = await prisma.$queryRaw<{ total: number }[]>`
    SELECT count(*)::int AS total FROM ${Prisma.raw(table.qualifiedName)} ${whereAll(conditions)}`;
  return count?.total ?? 0;
}

/**
 * The page's rows are chosen by their identity alone (primary key, or the row's physical
 * address in a table without one), which an index on the sort columns can answer without
 * reading the rows; only the chosen rows are then read whole.
 */
function readPage(
  prisma: PrismaClient,
  table: MasterTable,
  order: OrderTerm[],
  { conditions, backwards, offset, limit }: PagePlan,
): Promise<MasterRow[]> {
  const from = Prisma.raw(table.qualifiedName);
  // The subquery lists the key's columns one by one: `(a, b)` there would be one column of a
  // row type, which `(a, b) IN (…)` cannot compare with.
  const identityColumns =
    table.primaryKey.length > 0 ? Prisma.join(table.primaryKey.map(columnRef)) : Prisma.sql`ctid`;
  return prisma.$queryRaw<MasterRow[]>`
    SELECT ${columnsAsJson(table.primaryKey)} AS key, xmin::text AS version,
           ${columnsAsJson(table.columns)} AS values
    FROM ${from}
    WHERE (${identityColumns}) IN (
      SELECT ${identityColumns} FROM ${from} ${whereAll(conditions)} ${orderBy(order, backwards)}
      LIMIT ${limit} OFFSET ${offset})
    ${orderBy(order)}`;
}

/**
 * `readPage` of the table as the overlay makes it: the page is the first rows of two parts in
 * the view's order, today's rows the overlay leaves alone (by the same index as `readPage`,
 * at most `offset + limit` of them) and the overlay's rows as they become (few: built from the
 * requests or the history, joined to today's rows by key).
 */
async function readOverlaidPage(
  prisma: PrismaClient,
  table: MasterTable,
  order: OrderTerm[],
  { conditions, backwards, offset, limit }: PagePlan,
  overlay: RowOverlay,
): Promise<MasterRow[]> {
  const rows = await prisma.$queryRaw<
    (MasterRow & { scheduledChanges: StoredCellChange[] | null })[]
  >`
    WITH ${overlaidParts(table, overlay)},
    untouched_page AS (
      SELECT * FROM untouched ${whereAll(conditions)} ${orderBy(order, backwards)}
      LIMIT ${offset + limit})
    SELECT ${columnsAsJson(table.primaryKey)} AS key, "__tablelock_version" AS version,
           ${columnsAsJson(table.columns)} AS values,
           ${overlay.cellChanges ?? Prisma.sql`NULL::jsonb`} AS "scheduledChanges"
    FROM (SELECT * FROM untouched_page
          UNION ALL
          SELECT * FROM changed ${whereAll(conditions)}) AS page_source
    ${orderBy(order, backwards)}
    LIMIT ${limit} OFFSET ${offset}`;
  const page = rows.map(({ scheduledChanges, ...row }) => ({
    ...row,
    scheduledChanges: (scheduledChanges ?? []).map((change) => ({
      ...change,
      effectiveAt: new Date(change.effectiveAt),
    })),
  }));
  return backwards ? page.reverse() : page;
}

type StoredCellChange = Omit<ScheduledCellChange, 'effectiveAt'> & { effectiveAt: string };

async function countOverlaidRows(
  prisma: PrismaClient,
  table: MasterTable,
  conditions: Prisma.Sql[],
  overlay: RowOverlay,
) {
  // Today's count, less the overlay's rows as they are today, plus them as they become: the
  // count of today's rows is the one `countRows` makes, with no anti-join over the whole table.
  const from = Prisma.raw(table.qualifiedName);
  const [count] = await prisma.$queryRaw<{ total: number }[]>`
    WITH ${overlaidParts(table, overlay)}
    SELECT ((SELECT count(*) FROM ${from} ${whereAll(conditions)})
          - (SELECT count(*) FROM (SELECT t.* FROM overlay AS o JOIN ${from} AS t
                                   ON ${overlayKeyMatch(table)}) AS today ${whereAll(conditions)})
          + (SELECT count(*) FROM changed ${whereAll(conditions)}))::int AS total`;
  return count?.total ?? 0;
}

/**
 * The overlay's expressions, then `untouched` (today's rows the overlay does not name) and
 * `changed` (the overlay's rows that exist, as they become), with the same columns: the
 * table's, its row version and the overlay's row id. Filters and sort name the columns
 * unqualified, so they read either part alike.
 */
function overlaidParts(table: MasterTable, overlay: RowOverlay): Prisma.Sql {
  const from = Prisma.raw(table.qualifiedName);
  const match = overlayKeyMatch(table);
  const plain = Prisma.join(table.columns.map((column) => Prisma.sql`t.${columnRef(column)}`));
  const overlaid = Prisma.join(
    table.columns.map(
      (column) => Prisma.sql`CASE WHEN o.fresh OR o.cells -> ${column.name} IS NOT NULL
        THEN (o.cells ->> ${column.name})::${Prisma.raw(column.dataType)}
        ELSE t.${columnRef(column)} END AS ${columnRef(column)}`,
    ),
  );
  return Prisma.sql`${overlay.ctes},
    untouched AS (
      SELECT ${plain}, t.xmin::text AS "__tablelock_version", NULL::text AS "__tablelock_row"
      FROM ${from} AS t WHERE NOT EXISTS (SELECT 1 FROM overlay AS o WHERE ${match})),
    changed AS (
      SELECT ${overlaid}, coalesce(t.xmin::text, '0') AS "__tablelock_version",
             o.row_id AS "__tablelock_row"
      FROM overlay AS o LEFT JOIN ${from} AS t ON ${match}
      WHERE o.present AND (o.fresh OR t.ctid IS NOT NULL))`;
}
