import type { PrismaClient } from '@tablelock/db';

/** Every table back to `normal`, no locks of any kind, nobody in line: the start of a test. */
export async function resetLockRegistry(prisma: PrismaClient): Promise<void> {
  await prisma.lockWaiter.deleteMany();
  await prisma.tableLock.updateMany({
    data: {
      status: 'normal',
      editor: null,
      lockedBy: [],
      fencingToken: null,
      acquiredAt: null,
      leaseExpiresAt: null,
      lastActiveAt: null,
    },
  });
}
