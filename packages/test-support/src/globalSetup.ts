import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '@tablelock/db';
import type { TestProject } from 'vitest/node';
import { freePort } from './freePort';
import { postgresOsUser } from './postgresServer';
import { prepareTablelockDatabase } from './tablelockDatabase';
import { TEMPLATE_DATABASE } from './testDatabase';

/**
 * Once per test run: a throwaway embedded Postgres with a template database that is migrated,
 * holds the demo data, a synced registry and the demo users. Each test file copies it (see createTestDatabase).
 * And a folder for the replica sets' templates, made when a test first needs one (replicaTemplate.ts).
 */
export default async function setup(project: TestProject) {
  const dataDir = await mkdtemp(join(tmpdir(), 'tablelock-test-pg-'));
  const server = await startEmbeddedPostgres({
    dataDir,
    port: await freePort(),
    ephemeral: true,
  });
  try {
    await prepareTablelockDatabase(server.adminUrl, TEMPLATE_DATABASE);
  } catch (error) {
    await server.stop();
    throw error;
  }
  project.provide('adminUrl', server.adminUrl);
  const replicaTemplatesDir = await mkdtemp(join(tmpdir(), 'tablelock-replica-templates-'));
  const owner = postgresOsUser();
  if (owner) await chown(replicaTemplatesDir, owner.uid, owner.gid);
  project.provide('replicaTemplatesDir', replicaTemplatesDir);
  return async () => {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
    await rm(replicaTemplatesDir, { recursive: true, force: true });
  };
}
