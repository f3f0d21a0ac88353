import type { PrismaClient } from '@tablelock/db';
import { createApiKey } from '@tablelock/identity';
import { TEST_AUDIT } from './testAudit';

/** A new API key named `name` with `role`, created straight in the database: its secret. */
export async function createTestApiKey(
  prisma: PrismaClient,
  name: string,
  role: 'viewer' | 'editor' | 'admin',
): Promise<string> {
  return (await createApiKey(prisma, { name, role }, TEST_AUDIT)).secret;
}
