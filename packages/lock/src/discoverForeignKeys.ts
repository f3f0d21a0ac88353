import type { TransactionClient } from '@tablelock/db';

/**
 * Every base table of `schema` with the tables of that schema it references by foreign key
 * (sorted, self-references left out), read from the Postgres catalog.
 */
export async function discoverForeignKeys(
  tx: TransactionClient,
  schema: string,
): Promise<Map<string, string[]>> {
  const rows = await tx.$queryRaw<{ table_name: string; references: string[] }[]>`
    SELECT c.relname::text AS table_name,
           coalesce(array_agg(DISTINCT target.relname::text ORDER BY target.relname::text)
                      FILTER (WHERE target.oid IS NOT NULL AND target.oid <> c.oid),
                    '{}') AS "references"
    FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_constraint fk ON fk.conrelid = c.oid AND fk.contype = 'f'
    LEFT JOIN pg_class target ON target.oid = fk.confrelid AND target.relnamespace = c.relnamespace
    WHERE n.nspname = ${schema} AND c.relkind IN ('r', 'p') AND NOT c.relispartition
    GROUP BY c.relname
    ORDER BY c.relname`;
  return new Map(rows.map((row) => [row.table_name, row.references]));
}
