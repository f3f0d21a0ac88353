import type { PrismaClient } from '@tablelock/db';

/**
 * Every table back to `normal`, no locks of any kind (no row scopes either), nobody in line, no
 * freeze, no policy, the default take-over rule: the start of a test.
 */
export async function resetLockRegistry(prisma: PrismaClient): Promise<void> {
  await prisma.lockWaiter.deleteMany();
  await prisma.rowLock.deleteMany();
  await prisma.tableLock.updateMany({
    data: {
      status: 'normal',
      editor: null,
      lockedBy: [],
      fencingToken: null,
      acquiredAt: null,
      leaseExpiresAt: null,
      lastActiveAt: null,
      frozenAt: null,
      frozenBy: null,
      frozenReason: null,
      frozenUntil: null,
    },
  });
  await prisma.tablePolicy.deleteMany();
  await prisma.lockSettings.update({
    where: { id: true },
    data: { takeOverRule: 'own_sessions', takeOverIdleMinutes: 15 },
  });
}
