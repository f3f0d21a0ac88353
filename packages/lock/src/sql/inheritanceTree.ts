import { Prisma } from '@tablelock/db';

/**
 * Whether the relation `alias` (a pg_class row) belongs to an inheritance tree: a partitioned
 * table (with or without partitions yet), a partition, or a parent or child of table
 * inheritance. The write guard cannot hold every write to such a table (its statement triggers
 * fire only for the table a statement names), so none is a master table.
 */
export function inInheritanceTree(alias: string): Prisma.Sql {
  const relation = Prisma.raw(alias);
  return Prisma.sql`(${relation}.relkind = 'p' OR EXISTS (
    SELECT 1 FROM pg_inherits AS tree
    WHERE tree.inhrelid = ${relation}.oid OR tree.inhparent = ${relation}.oid))`;
}

/**
 * The tables of `schema` the registry leaves out (inInheritanceTree), each with what it is a
 * partition of or inherits from (`parent`, the first) and whether it is declarative
 * partitioning (`partitioned`) rather than table inheritance.
 */
export function leftOutTablesQuery(schema: string): Prisma.Sql {
  return Prisma.sql`
    SELECT c.relname::text AS table_name,
           (SELECT parent.relname::text FROM pg_inherits AS i
              JOIN pg_class AS parent ON parent.oid = i.inhparent
            WHERE i.inhrelid = c.oid ORDER BY i.inhseqno LIMIT 1) AS parent,
           c.relkind = 'p' OR c.relispartition AS partitioned
    FROM pg_class AS c
    JOIN pg_namespace AS n ON n.oid = c.relnamespace
    WHERE n.nspname = ${schema} AND c.relkind IN ('r', 'p') AND ${inInheritanceTree('c')}`;
}
