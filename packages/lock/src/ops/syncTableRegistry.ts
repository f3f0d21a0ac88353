import type { PrismaClient } from '@tablelock/db';
import { foreignKeysQuery } from '../sql/foreignKeysQuery';
import { leftOutTablesQuery } from '../sql/inheritanceTree';
import { LEFT_OUT_TABLE, TABLE_LOCK } from '../sql/registryTables';

export interface RegistrySync {
  added: string[];
  removed: string[];
  /** Tables whose FK targets changed. */
  referencesChanged: string[];
  /**
   * Every table of the schema left out as belonging to an inheritance tree (partitioned
   * tables, partitions, table inheritance): not lockable, not guarded. A registered table that
   * became one (attached as a partition, say) is among `removed` too.
   */
  leftOut: string[];
}

/**
 * Makes the registry match the master schema: a row for every base table outside inheritance
 * trees, each with its FK targets as the catalog has them now. Rows of dropped tables go, and
 * so do the FK holds they had on other tables. The tables left out are kept as such, so that a
 * request to lock one is refused for what it is (see notAMasterTable).
 *
 * One statement, so all or nothing without an interactive transaction (whose time limit
 * thousands of tables on a busy machine overran), and set-based, so 10,000 tables take one
 * pass. Each registry row is written at most once: a row whose FK targets changed and that a
 * dropped table held is updated for both in one go.
 */
export async function syncTableRegistry(
  prisma: PrismaClient,
  schema: string,
): Promise<RegistrySync> {
  const [result] = await prisma.$queryRaw<RegistrySync[]>`
    WITH catalog AS (${foreignKeysQuery(schema)}),
    left_out AS (${leftOutTablesQuery(schema)}),
    left_out_gone AS (
      DELETE FROM ${LEFT_OUT_TABLE} AS l
      WHERE NOT EXISTS (SELECT 1 FROM left_out WHERE left_out.table_name = l.table_name)
    ), left_out_kept AS (
      INSERT INTO ${LEFT_OUT_TABLE} AS l (table_name, parent, partitioned)
      SELECT table_name, parent, partitioned FROM left_out
      ON CONFLICT (table_name) DO UPDATE SET parent = EXCLUDED.parent, partitioned = EXCLUDED.partitioned
      WHERE (l.parent, l.partitioned) IS DISTINCT FROM (EXCLUDED.parent, EXCLUDED.partitioned)
    ),
    gone AS (
      SELECT t.table_name FROM ${TABLE_LOCK} AS t
      WHERE NOT EXISTS (SELECT 1 FROM catalog AS c WHERE c.table_name = t.table_name)
    ), added AS (
      INSERT INTO ${TABLE_LOCK} (table_name, "references")
      SELECT c.table_name, c."references" FROM catalog AS c
      WHERE NOT EXISTS (SELECT 1 FROM ${TABLE_LOCK} AS t WHERE t.table_name = c.table_name)
      ON CONFLICT (table_name) DO NOTHING
      RETURNING table_name
    ), removed AS (
      DELETE FROM ${TABLE_LOCK} AS t USING gone WHERE t.table_name = gone.table_name
      RETURNING t.table_name
    ), kept AS (
      SELECT t.table_name, c."references",
             t."references" IS DISTINCT FROM c."references" AS references_changed,
             ARRAY(SELECT h FROM unnest(t.locked_by) AS h
                   WHERE h NOT IN (SELECT table_name FROM gone) ORDER BY h) AS locked_by
      FROM ${TABLE_LOCK} AS t JOIN catalog AS c ON c.table_name = t.table_name
      WHERE t."references" IS DISTINCT FROM c."references"
         OR t.locked_by && ARRAY(SELECT table_name FROM gone)
    ), updated AS (
      UPDATE ${TABLE_LOCK} AS t
      SET "references" = kept."references", locked_by = kept.locked_by,
          status = CASE WHEN t.status = 'locked' AND cardinality(kept.locked_by) = 0 THEN 'normal'
                        ELSE t.status END,
          version = t.version + 1, updated_at = now()
      FROM kept WHERE t.table_name = kept.table_name
      RETURNING t.table_name, kept.references_changed
    )
    SELECT ARRAY(SELECT table_name FROM added ORDER BY table_name) AS added,
           ARRAY(SELECT table_name FROM removed ORDER BY table_name) AS removed,
           ARRAY(SELECT table_name FROM updated WHERE references_changed ORDER BY table_name)
             AS "referencesChanged",
           ARRAY(SELECT table_name FROM left_out ORDER BY table_name) AS "leftOut"`;
  if (!result) throw new Error('The registry sync returned no row.');
  return result;
}
