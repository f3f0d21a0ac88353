import type { PrismaClient } from '@tablelock/db';
import type { SecurityLogger } from '@tablelock/identity';
import { syncWriteGuards, type WriteGuard, type WriteGuardSync } from '@tablelock/master-data';

/**
 * Makes the write guard's triggers match every table's guard, and says what it changed. A
 * table it could not guard is logged as a warning with the statement that fixes it: the API
 * starts anyway, and the table is reported, never silently unguarded.
 */
export async function installWriteGuards(
  prisma: PrismaClient,
  settings: { masterSchema: string; writeGuardDefault: WriteGuard },
  logger: SecurityLogger,
): Promise<WriteGuardSync> {
  const sync = await syncWriteGuards(prisma, settings.masterSchema, settings.writeGuardDefault);
  if (sync.installed.length > 0 || sync.removed.length > 0) {
    logger.info(
      { installed: sync.installed, removed: sync.removed },
      'write guard triggers installed and removed',
    );
  }
  for (const table of sync.failed) {
    logger.warn(
      { table: table.tableName, guard: table.guard, error: table.error, fix: table.grant },
      `write guard not installed on ${table.tableName}: run ${table.grant}`,
    );
  }
  return sync;
}
