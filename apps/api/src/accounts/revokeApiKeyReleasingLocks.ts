import type { PrismaClient } from '@tablelock/db';
import {
  API_KEY_PREFIX,
  type ApiKeyInfo,
  revokeApiKey,
  type SecurityAudit,
} from '@tablelock/identity';
import { releaseLocksOf } from '@tablelock/lock';

/**
 * Revokes an API key and releases the locks it holds: a batch job's may have no expiry, and
 * nobody could finish them once the key is gone. The releases are recorded as the revoker's.
 */
export async function revokeApiKeyReleasingLocks(
  prisma: PrismaClient,
  name: string,
  audit: SecurityAudit,
): Promise<ApiKeyInfo> {
  const apiKey = await revokeApiKey(prisma, name, audit);
  await releaseLocksOf(prisma, {
    editor: `${API_KEY_PREFIX}${apiKey.name}`,
    actor: audit.actor,
    reason: 'API key revoked',
  });
  return apiKey;
}
