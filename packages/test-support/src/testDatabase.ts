import { randomUUID } from 'node:crypto';
import { createDatabase, createPrismaClient, type PrismaClient, withDatabase } from '@tablelock/db';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL of the run's embedded Postgres, provided by globalSetup. */
    adminUrl: string;
  }
}

export const TEMPLATE_DATABASE = 'tablelock_template';
export const MASTER_SCHEMA = 'master';

export interface TestDatabase {
  url: string;
  /** Admin connection to the test server (database `postgres`). */
  adminUrl: string;
  prisma: PrismaClient;
  close(): Promise<void>;
}

/**
 * A fresh database of its own for a test file: a copy of the migrated template with the demo
 * data and a synced registry, on the run's embedded Postgres.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('adminUrl');
  const name = `test_${randomUUID().replaceAll('-', '')}`;
  await createDatabase(adminUrl, name, { template: TEMPLATE_DATABASE });
  return openTestDatabase(withDatabase(adminUrl, name), adminUrl);
}

/** A database the test made elsewhere (on a replica set, say), with a client of its own. */
export function openTestDatabase(url: string, adminUrl = url): TestDatabase {
  const prisma = createPrismaClient(url);
  return { url, adminUrl, prisma, close: () => prisma.$disconnect() };
}
