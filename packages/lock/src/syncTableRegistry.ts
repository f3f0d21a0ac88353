import type { PrismaClient } from '@tablelock/db';
import { discoverForeignKeys } from './discoverForeignKeys';
import { TABLE_LOCK } from './registryTables';

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
 */
export async function syncTableRegistry(
  prisma: PrismaClient,
  schema: string,
): Promise<RegistrySync> {
  return prisma.$transaction(async (tx) => {
    const catalog = await discoverForeignKeys(tx, schema);
    const registry = await tx.tableLock.findMany({
      select: { tableName: true, references: true },
    });
    const known = new Map(registry.map((row) => [row.tableName, row.references]));

    const added = [...catalog.keys()].filter((name) => !known.has(name));
    const removed = [...known.keys()].filter((name) => !catalog.has(name));
    const referencesChanged = [...catalog].filter(([name, references]) => {
      const before = known.get(name);
      return before !== undefined && before.join('\0') !== references.join('\0');
    });

    if (added.length > 0) {
      await tx.tableLock.createMany({
        data: added.map((tableName) => ({ tableName, references: catalog.get(tableName) ?? [] })),
        skipDuplicates: true,
      });
    }
    if (referencesChanged.length > 0) {
      const payload = JSON.stringify(
        referencesChanged.map(([table_name, references]) => ({ table_name, references })),
      );
      await tx.$executeRaw`
        UPDATE ${TABLE_LOCK} AS t
        SET "references" = u."references", version = t.version + 1, updated_at = now()
        FROM jsonb_to_recordset(${payload}::jsonb) AS u(table_name text, "references" text[])
        WHERE t.table_name = u.table_name`;
    }
    if (removed.length > 0) {
      await tx.tableLock.deleteMany({ where: { tableName: { in: removed } } });
      await tx.$executeRaw`
        UPDATE ${TABLE_LOCK} AS t
        SET locked_by = kept.locked_by,
            status = CASE WHEN cardinality(kept.locked_by) = 0 THEN 'normal' ELSE t.status END,
            version = t.version + 1, updated_at = now()
        FROM (SELECT table_name,
                     ARRAY(SELECT h FROM unnest(locked_by) AS h
                           WHERE h <> ALL(${removed}::text[]) ORDER BY h) AS locked_by
              FROM ${TABLE_LOCK}
              WHERE locked_by && ${removed}::text[]) AS kept
        WHERE t.table_name = kept.table_name`;
    }
    return { added, removed, referencesChanged: referencesChanged.map(([name]) => name) };
  });
}
