import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  applyMigrations,
  createDatabase,
  createPrismaClient,
  loadDemoData,
  startEmbeddedPostgres,
  withDatabase,
} from '@tablelock/db';
import { ensureDemoUsers } from '@tablelock/identity';
import { syncTableRegistry } from '@tablelock/lock';
import type { TestProject } from 'vitest/node';
import { freePort } from './freePort';
import { TEST_AUDIT } from './testAudit';
import { MASTER_SCHEMA, TEMPLATE_DATABASE } from './testDatabase';

/**
 * Once per test run: a throwaway embedded Postgres with a template database that is migrated,
 * holds the demo data, a synced registry and the demo users. Each test file copies it (see createTestDatabase).
 */
export default async function setup(project: TestProject) {
  const dataDir = await mkdtemp(join(tmpdir(), 'tablelock-test-pg-'));
  const server = await startEmbeddedPostgres({
    dataDir,
    port: await freePort(),
    ephemeral: true,
  });
  try {
    await createDatabase(server.adminUrl, TEMPLATE_DATABASE);
    const url = withDatabase(server.adminUrl, TEMPLATE_DATABASE);
    await applyMigrations(url);
    await loadDemoData(url, MASTER_SCHEMA);
    const prisma = createPrismaClient(url, { poolSize: 1 });
    await syncTableRegistry(prisma, MASTER_SCHEMA);
    await ensureDemoUsers(prisma, TEST_AUDIT.logger);
    await prisma.$disconnect();
  } catch (error) {
    await server.stop();
    throw error;
  }
  project.provide('adminUrl', server.adminUrl);
  return async () => {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
