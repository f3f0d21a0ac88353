import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@tablelock/test-support';
import { describe, expect, inject, it } from 'vitest';
import {
  createDatabase,
  createPrismaClient,
  type OpenDatabase,
  openDatabase,
  type PrismaClient,
  withDatabase,
} from '../src';

/** Runs `use` with a client of its own, always disconnected, so no pool outlives its server. */
async function withClient<T>(url: string, use: (prisma: PrismaClient) => Promise<T>): Promise<T> {
  const prisma = createPrismaClient(url, { poolSize: 1 });
  try {
    return await use(prisma);
  } finally {
    await prisma.$disconnect();
  }
}

function migrationRows(prisma: PrismaClient) {
  return prisma.$queryRaw<{ id: string; migration_name: string; finished_at: Date }[]>`
    SELECT id, migration_name, finished_at FROM _prisma_migrations ORDER BY migration_name, id`;
}

describe('openDatabase', () => {
  it('embedded: starts its own migrated Postgres whose data survives a restart', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'tablelock-open-'));
    let open: OpenDatabase | undefined;
    try {
      open = await openDatabase({ dataDir, embeddedPort: await freePort() });
      expect(open.embedded).toBe(true);
      expect(open.directUrl).toBe(open.url);
      const firstUrl = open.url;
      const migrations = await withClient(firstUrl, async (prisma) => {
        await prisma.$executeRawUnsafe(
          'CREATE TABLE public.kept (id integer PRIMARY KEY, note text)',
        );
        await prisma.$executeRaw`INSERT INTO public.kept (id, note) VALUES (1, 'still here')`;
        return migrationRows(prisma);
      });
      expect(migrations.length).toBeGreaterThan(0);
      await open.close();
      open = undefined;

      // Another port, as after a real restart: nothing may depend on the port staying the same.
      open = await openDatabase({ dataDir, embeddedPort: await freePort() });
      expect(open.embedded).toBe(true);
      expect(open.url).not.toBe(firstUrl);
      await withClient(open.url, async (prisma) => {
        expect(await prisma.$queryRaw`SELECT id, note FROM public.kept`).toEqual([
          { id: 1, note: 'still here' },
        ]);
        // Same ids and times: the restart found the migrations applied and re-ran none.
        expect(await migrationRows(prisma)).toEqual(migrations);
      });
    } finally {
      await open?.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('databaseUrl: migrates that database, starts nothing, and close() leaves the server running', async () => {
    const name = `open_external_${randomUUID().replaceAll('-', '')}`;
    await createDatabase(inject('adminUrl'), name);
    const url = withDatabase(inject('adminUrl'), name);
    // Never created: an embedded start would initialise a cluster here.
    const dataDir = join(tmpdir(), `tablelock-unused-${randomUUID()}`);

    const open = await openDatabase({ databaseUrl: url, dataDir, embeddedPort: await freePort() });
    expect(open).toMatchObject({ url, directUrl: url, embedded: false });
    expect(existsSync(dataDir)).toBe(false);
    await open.close();

    await withClient(url, async (prisma) => {
      const [registry] = await prisma.$queryRaw<{ regclass: string | null }[]>`
        SELECT to_regclass('tablelock.table_lock')::text AS regclass`;
      expect(registry?.regclass).toBe('tablelock.table_lock');
    });
  });

  it('directDatabaseUrl: migrations run there, not through the (pooled) databaseUrl', async () => {
    const name = `open_direct_${randomUUID().replaceAll('-', '')}`;
    await createDatabase(inject('adminUrl'), name);
    const directUrl = withDatabase(inject('adminUrl'), name);
    // Nothing listens there: a migration through it would fail the open.
    const pooledUrl = `postgresql://postgres:postgres@127.0.0.1:${await freePort()}/${name}`;
    const dataDir = join(tmpdir(), `tablelock-unused-${randomUUID()}`);

    const open = await openDatabase({
      databaseUrl: pooledUrl,
      directDatabaseUrl: directUrl,
      dataDir,
      embeddedPort: await freePort(),
    });
    expect(open).toMatchObject({ url: pooledUrl, directUrl, embedded: false });
    await open.close();

    await withClient(directUrl, async (prisma) => {
      expect(await migrationRows(prisma)).not.toEqual([]);
    });
  });
});
