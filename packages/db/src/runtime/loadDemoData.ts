import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createPrismaClient } from '../access/prismaClient';
import { quoteIdentifier } from '../access/quoteIdentifier';
import { dbPackageDir } from './dbPackageDir';

const demoSqlPath = join(dbPackageDir, 'demo/master.sql');

/**
 * Creates the demo master tables and rows in `schema`, once: if the schema already exists
 * (a later start, or a real database) nothing is touched. Returns whether it loaded anything.
 */
export async function loadDemoData(databaseUrl: string, schema: string): Promise<boolean> {
  const sql = await readFile(demoSqlPath, 'utf8');
  const prisma = createPrismaClient(databaseUrl, { poolSize: 1 });
  try {
    return await prisma.$transaction(
      async (tx) => {
        // Concurrent first starts (several API processes) must not both load.
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`demo-data:${schema}`}))`;
        const exists = await tx.$queryRaw<unknown[]>`
          SELECT 1 FROM pg_namespace WHERE nspname = ${schema}`;
        if (exists.length > 0) return false;
        const name = quoteIdentifier(schema);
        await tx.$executeRawUnsafe(
          `CREATE SCHEMA ${name}; SET LOCAL search_path = ${name}; ${sql}`,
        );
        return true;
      },
      { timeout: 5 * 60_000 },
    );
  } finally {
    await prisma.$disconnect();
  }
}
