import type { PrismaClient } from '@tablelock/db';
import {
  type SecurityAudit,
  type UserChange,
  type UserInfo,
  updateUser,
} from '@tablelock/identity';
import { releaseLocksOf } from '@tablelock/lock';

/**
 * Changes a user (see updateUser); disabling one also releases the locks it holds, recorded as
 * the admin's: a user who cannot log in any more edits nothing.
 */
export async function updateUserReleasingLocks(
  prisma: PrismaClient,
  input: UserChange,
  audit: SecurityAudit,
): Promise<UserInfo> {
  const user = await updateUser(prisma, input, audit);
  if (user.disabled) {
    await releaseLocksOf(prisma, {
      editor: user.username,
      actor: audit.actor,
      reason: 'user disabled',
    });
  }
  return user;
}
