import { Prisma } from '@tablelock/db';
import { inInheritanceTree } from './inheritanceTree';

/**
 * A query of every master table of `schema` (`table_name`): each base table that belongs to no
 * inheritance tree (see inInheritanceTree), with the master tables of that schema it references
 * by foreign key (`references`, sorted, self-references left out), read from the Postgres
 * catalog.
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
      AND target.relkind = 'r' AND NOT ${inInheritanceTree('target')}
    WHERE n.nspname = ${schema} AND c.relkind = 'r' AND NOT ${inInheritanceTree('c')}
    GROUP BY c.relname`;
}
