import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { againIfRolledBack } from '../access/againIfRolledBack';
import { createPrismaClient, type Queryable, type TransactionClient } from '../access/prismaClient';
import { dbPackageDir } from './dbPackageDir';

/** Prisma's migrations folder of this repository. */
export const migrationsDir = join(dbPackageDir, '../../prisma/migrations');

// Any constant works; it only has to be the same for every process that migrates.
const MIGRATION_LOCK_KEY = 7_246_913;

/**
 * Applies the SQL migrations in Prisma's folder format (`<timestamp>_<name>/migration.sql`)
 * that the database has not seen yet, each in its own transaction, and records them in
 * Prisma's `_prisma_migrations` table so that `prisma migrate` (where its engine is installed)
 * agrees about what was applied. Needs no Prisma engine. Safe to run from several processes at
 * once: they take turns on an advisory lock. Fails if an applied migration's file was changed.
 * Returns the names of the migrations it applied.
 */
export async function applyMigrations(
  databaseUrl: string,
  directory = migrationsDir,
): Promise<string[]> {
  const migrations = await readMigrations(directory);
  const prisma = createPrismaClient(databaseUrl, { poolSize: 1 });
  try {
    const applied: string[] = [];
    for (const migration of migrations) {
      const ran = await againIfRolledBack(MIGRATION_TRIES, () =>
        prisma.$transaction((tx) => applyMigration(tx, migration), { timeout: 10 * 60_000 }),
      );
      if (ran) applied.push(migration.name);
    }
    return applied;
  } finally {
    await prisma.$disconnect();
  }
}

/**
 * How often a migration is tried: the app keeps serving while a new release migrates (a rolling
 * upgrade), and its transactions may take the same tables' locks in another order, which makes
 * the migration a deadlock's victim.
 */
const MIGRATION_TRIES = 5;

/**
 * The migrations in `directory` that the database has not finished applying: none on a
 * database the app may serve from.
 */
export async function pendingMigrations(
  db: Queryable,
  directory = migrationsDir,
): Promise<string[]> {
  const names = await readMigrationNames(directory);
  const applied = await db.$queryRaw<{ name: string }[]>`
    SELECT migration_name AS name FROM _prisma_migrations
    WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
  const done = new Set(applied.map((row) => row.name));
  return names.filter((name) => !done.has(name));
}

interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

async function applyMigration(tx: TransactionClient, migration: Migration): Promise<boolean> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`;
  await tx.$executeRawUnsafe(CREATE_MIGRATIONS_TABLE);
  const [done] = await tx.$queryRaw<{ checksum: string }[]>`
    SELECT checksum FROM _prisma_migrations
    WHERE migration_name = ${migration.name} AND finished_at IS NOT NULL AND rolled_back_at IS NULL`;
  if (done) {
    if (done.checksum !== migration.checksum) {
      throw new Error(`Migration ${migration.name} was changed after it was applied.`);
    }
    return false;
  }
  // A migration file holds many statements; without parameters they run as one script.
  await tx.$executeRawUnsafe(migration.sql);
  await tx.$executeRaw`
    INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
    VALUES (${randomUUID()}, ${migration.checksum}, ${migration.name}, now(), now(), 1)`;
  return true;
}

/** The migrations' folder names, in the order they apply. */
async function readMigrationNames(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true });
  return entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

async function readMigrations(directory: string): Promise<Migration[]> {
  const names = await readMigrationNames(directory);
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(join(directory, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}

// Prisma's own definition of its bookkeeping table.
const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS _prisma_migrations (
  id                  VARCHAR(36) PRIMARY KEY NOT NULL,
  checksum            VARCHAR(64) NOT NULL,
  finished_at         TIMESTAMPTZ,
  migration_name      VARCHAR(255) NOT NULL,
  logs                TEXT,
  rolled_back_at      TIMESTAMPTZ,
  started_at          TIMESTAMPTZ NOT NULL DEFAULT now(),
  applied_steps_count INTEGER NOT NULL DEFAULT 0
)`;
