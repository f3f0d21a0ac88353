import type { PrismaClient } from '@tablelock/db';
import { foreignKeysQuery } from '../sql/foreignKeysQuery';
import { TABLE_LOCK } from '../sql/registryTables';

export interface RegistrySync {
  added: string[];
  removed: string[];
  /** Tables whose FK targets changed. */
  referencesChanged: string[];
}

/**
 * Makes the registry match the master schema: a row for every base table, each with its FK
 * targets as the catalog has them now. Rows of dropped tables go, and so do the FK holds they
 * had on other tables.
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
             AS "referencesChanged"`;
  if (!result) throw new Error('The registry sync returned no row.');
  return result;
}
