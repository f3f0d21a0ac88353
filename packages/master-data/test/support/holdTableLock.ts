import type { PrismaClient } from '@tablelock/db';
import { acquireTableLock, grantedOrConflict } from '@tablelock/lock';

/** alice takes `tableName` (it must be free): the fencing token her saves and imports present. */
export async function holdTableLock(
  prisma: PrismaClient,
  tableName: string,
  leaseSeconds = 60,
): Promise<string> {
  const grant = grantedOrConflict(
    await acquireTableLock(prisma, { tableName, editor: 'alice', leaseSeconds }),
  );
  return grant.fencingToken;
}
