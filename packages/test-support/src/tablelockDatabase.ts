import {
  applyMigrations,
  createDatabase,
  createPrismaClient,
  loadDemoData,
  withDatabase,
} from '@tablelock/db';
import { ensureDemoUsers } from '@tablelock/identity';
import { syncTableRegistry } from '@tablelock/lock';
import { TEST_AUDIT } from './testAudit';
import { MASTER_SCHEMA } from './testDatabase';

/**
 * Creates database `name` on the server of `adminUrl` as the app finds it after its first
 * start: migrated, with the demo data, a synced registry and the demo users. Answers its URL.
 */
export async function prepareTablelockDatabase(adminUrl: string, name: string): Promise<string> {
  await createDatabase(adminUrl, name);
  const url = withDatabase(adminUrl, name);
  await applyMigrations(url);
  await loadDemoData(url, MASTER_SCHEMA);
  const prisma = createPrismaClient(url, { poolSize: 1 });
  try {
    await syncTableRegistry(prisma, MASTER_SCHEMA);
    await ensureDemoUsers(prisma, TEST_AUDIT.logger);
  } finally {
    await prisma.$disconnect();
  }
  return url;
}
