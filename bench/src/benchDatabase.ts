import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  applyMigrations,
  createPrismaClient,
  loadDemoData,
  quoteIdentifier,
  startEmbeddedPostgres,
  withDatabase,
} from '@tablelock/db';
import { syncTableRegistry } from '@tablelock/lock';
import { freePort } from '@tablelock/test-support';

export const MASTER_SCHEMA = 'master';
const BENCH_DATABASE = 'tablelock_bench';

export interface BenchDatabase {
  url: string;
  /** Where the database runs: "embedded" or the external server's host. */
  server: string;
  close(): Promise<void>;
}

/**
 * A database of the bench's own, so that nothing it does touches real data: on the server of
 * DATABASE_URL when set (the role needs CREATEDB), else on a throwaway embedded Postgres.
 * Migrated, with the demo data, `pairs` extra parent/child table pairs (one per client, so that
 * clients of the throughput scenarios do not contend), and a synced registry.
 */
export async function openBenchDatabase(pairs: number): Promise<BenchDatabase> {
  const external = process.env.DATABASE_URL;
  const dataDir = external ? undefined : await mkdtemp(join(tmpdir(), 'tablelock-bench-pg-'));
  const embedded = dataDir
    ? await startEmbeddedPostgres({ dataDir, port: await freePort() })
    : undefined;
  const adminUrl = external ?? embedded?.adminUrl ?? '';
  const admin = createPrismaClient(adminUrl, { poolSize: 1 });
  const name = quoteIdentifier(BENCH_DATABASE);
  await admin.$executeRawUnsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.$executeRawUnsafe(`CREATE DATABASE ${name}`);
  const url = withDatabase(adminUrl, BENCH_DATABASE);
  await applyMigrations(url);
  await loadDemoData(url, MASTER_SCHEMA);
  const prisma = createPrismaClient(url, { poolSize: 1 });
  await prisma.$executeRawUnsafe(benchTablesSql(pairs));
  await syncTableRegistry(prisma, MASTER_SCHEMA);
  await prisma.$disconnect();
  return {
    url,
    server: external ? new URL(external).host : 'embedded',
    async close() {
      await admin.$executeRawUnsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.$disconnect();
      await embedded?.stop();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Client `i` of a throughput scenario edits `bench_child_i`, which locks `bench_parent_i`. */
export const benchPair = (i: number) => ({
  child: `bench_child_${i}`,
  parent: `bench_parent_${i}`,
});

function benchTablesSql(pairs: number): string {
  return Array.from({ length: pairs }, (_, i) => {
    const { child, parent } = benchPair(i);
    return `CREATE TABLE ${MASTER_SCHEMA}.${parent} (id integer PRIMARY KEY);
            CREATE TABLE ${MASTER_SCHEMA}.${child} (
              id integer PRIMARY KEY, parent_id integer REFERENCES ${MASTER_SCHEMA}.${parent} (id));`;
  }).join('\n');
}
