import type { PrismaClient } from '@tablelock/db';
import type { SecurityLogger } from '@tablelock/identity';
import { type RegistrySync, syncTableRegistry } from '@tablelock/lock';
import type { WriteGuard } from '@tablelock/master-data';
import { installWriteGuards } from './installWriteGuards';

/**
 * Makes the lock registry match the master schema, then every table's triggers its guard, and
 * logs what they did. Tables the registry leaves out (partitioned tables, their partitions,
 * table inheritance: the guard cannot hold every write to them) are a warning saying what to
 * do; the API starts anyway, and a request to lock one answers TABLE_PARTITIONED.
 */
export async function syncMasterTables(
  prisma: PrismaClient,
  settings: { masterSchema: string; writeGuardDefault: WriteGuard },
  logger: SecurityLogger,
): Promise<RegistrySync> {
  const sync = await syncTableRegistry(prisma, settings.masterSchema);
  logger.info({ ...sync }, 'table registry in sync with the master schema');
  if (sync.leftOut.length > 0) {
    logger.warn(
      { schema: settings.masterSchema, tables: sync.leftOut },
      `not master tables, neither locked nor guarded: ${sync.leftOut.join(', ')}. tablelock ` +
        'leaves out partitioned tables, their partitions and tables with inheritance, as a ' +
        'write straight to a partition would pass the write guard. To lock and guard one, ' +
        'store it unpartitioned; else keep it out of the master schema.',
    );
  }
  await installWriteGuards(prisma, settings, logger);
  return sync;
}
