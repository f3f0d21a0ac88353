import { Prisma } from '@tablelock/db';

/**
 * A query of every base table of `schema` (`table_name`) with the tables of that schema it
 * references by foreign key (`references`, sorted, self-references left out), read from the
 * Postgres catalog.
 */
export function foreignKeysQuery(schema: string): Prisma.Sql {
  return Prisma.sql`
    SELECT c.relname::text AS table_name,
           coalesce(array_agg(DISTINCT target.relname::text ORDER BY target.relname::text)
                      FILTER (WHERE target.oid IS NOT NULL AND target.oid <> c.oid),
                    '{}') AS "references"
    FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_constraint fk ON fk.conrelid = c.oid AND fk.contype = 'f'
    LEFT JOIN pg_class target ON target.oid = fk.confrelid AND target.relnamespace = c.relnamespace
    WHERE n.nspname = ${schema} AND c.relkind IN ('r', 'p') AND NOT c.relispartition
    GROUP BY c.relname`;
}
