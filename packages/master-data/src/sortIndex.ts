import { createHash } from 'node:crypto';
import { Prisma, type Queryable, quoteIdentifier } from '@tablelock/db';
import { type MasterTable, readMasterTable, requireColumn, type TableColumn } from './tableColumns';

/** Below this many rows a table sorts in milliseconds: an index would only slow its writes. */
export const SORT_INDEX_MIN_ROWS = 10_000;

/** Sort indexes tablelock keeps on one table at most, unless told otherwise. */
export const SORT_INDEXES_PER_TABLE = 5;

/**
 * What a sort by one column of a master table needs so that any page of it is quick: nothing,
 * or statements (run outside any transaction, on a connection of their own) that build an
 * index on the column and the primary key, the order every page of that sort reads in.
 * `ownIndex` names tablelock's own index when that is the one the sort already has.
 */
export type SortIndexPlan =
  | { action: 'none'; reason: 'indexed'; ownIndex: string | null }
  | {
      action: 'none';
      reason: 'building' | 'small table' | 'no primary key' | 'too many sort indexes';
    }
  | { action: 'build'; index: string; statements: string[] };

interface IndexState {
  /** Some valid btree index leads with the column. */
  indexed: boolean;
  /** Our own index on it: valid, a build in progress, or one that failed half-way. */
  own: 'valid' | 'building' | 'invalid' | null;
  /** Our own indexes on the table's other columns, in any state. */
  others: number;
}

export async function planSortIndex(
  db: Queryable,
  schema: string,
  tableName: string,
  columnName: string,
  limits: { maxPerTable: number } = { maxPerTable: SORT_INDEXES_PER_TABLE },
): Promise<SortIndexPlan> {
  const table = await readMasterTable(db, schema, tableName);
  const column = requireColumn(table, columnName);
  if (table.primaryKey.length === 0) return { action: 'none', reason: 'no primary key' };
  const index = sortIndexName(table, column);
  const [state] = await db.$queryRaw<IndexState[]>`
    SELECT EXISTS (
             SELECT 1 FROM pg_index AS i
             JOIN pg_class AS ic ON ic.oid = i.indexrelid
             JOIN pg_am AS am ON am.oid = ic.relam
             WHERE i.indrelid = t.oid AND i.indkey[0] = a.attnum AND i.indisvalid
               AND i.indpred IS NULL AND am.amname = 'btree') AS indexed,
           (SELECT CASE WHEN i.indisvalid THEN 'valid'
                        WHEN EXISTS (SELECT 1 FROM pg_stat_progress_create_index AS p
                                     WHERE p.index_relid = ic.oid)
                        THEN 'building' ELSE 'invalid' END
              FROM pg_class AS ic JOIN pg_index AS i ON i.indexrelid = ic.oid
             WHERE ic.relname = ${index} AND ic.relnamespace = t.relnamespace) AS own,
           (SELECT count(*)::int FROM pg_index AS i JOIN pg_class AS ic ON ic.oid = i.indexrelid
             WHERE i.indrelid = t.oid AND ic.relname LIKE 'tlsort\_%' AND ic.relname <> ${index})
             AS others
    FROM pg_class AS t
    JOIN pg_attribute AS a ON a.attrelid = t.oid AND a.attname = ${column.name}
    WHERE t.oid = ${table.qualifiedName}::regclass`;
  if (state?.indexed) {
    return { action: 'none', reason: 'indexed', ownIndex: state.own === 'valid' ? index : null };
  }
  if (state?.own === 'building') return { action: 'none', reason: 'building' };
  // Each index slows every write to the table: a caller may not add them without end.
  if ((state?.others ?? 0) >= limits.maxPerTable) {
    return { action: 'none', reason: 'too many sort indexes' };
  }
  const [sample] = await db.$queryRaw<{ rows: number }[]>`
    SELECT count(*)::int AS rows
    FROM (SELECT 1 FROM ${Prisma.raw(table.qualifiedName)} LIMIT ${SORT_INDEX_MIN_ROWS}) AS sample`;
  if ((sample?.rows ?? 0) < SORT_INDEX_MIN_ROWS) return { action: 'none', reason: 'small table' };
  const qualifiedIndex = `${quoteIdentifier(schema)}.${quoteIdentifier(index)}`;
  const keys = [column, ...table.primaryKey.filter((key) => key.name !== column.name)];
  return {
    action: 'build',
    index,
    statements: [
      // A build cut off (a restart, a cancelled statement) leaves an invalid index behind.
      ...(state?.own === 'invalid' ? [`DROP INDEX CONCURRENTLY IF EXISTS ${qualifiedIndex}`] : []),
      `CREATE INDEX CONCURRENTLY IF NOT EXISTS ${quoteIdentifier(index)} ON ${table.qualifiedName} (${keys.map((key) => quoteIdentifier(key.name)).join(', ')})`,
    ],
  };
}

/** A name a database administrator recognises as tablelock's, unique per table and column. */
function sortIndexName(table: MasterTable, column: TableColumn): string {
  const slug = `${table.name}_${column.name}`
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .slice(0, 40);
  const hash = createHash('sha256').update(`${table.name}\0${column.name}`).digest('hex');
  return `tlsort_${slug}_${hash.slice(0, 8)}`;
}
