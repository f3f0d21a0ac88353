import { createPrismaClient } from './prismaClient';
import { quoteIdentifier } from './quoteIdentifier';

/**
 * Creates database `name` on the server of `adminUrl` unless it exists, optionally as a copy
 * of `template` (how tests get a fresh database that already holds the demo data). The copy is
 * of the template's files: Postgres's default since 15 writes every page of it to the WAL,
 * which for the 38 MB of the demo data took 2-3 times as long and a test file's share of the
 * CPU, at every file of the suite.
 */
export async function createDatabase(
  adminUrl: string,
  name: string,
  options: { template?: string } = {},
): Promise<void> {
  const prisma = createPrismaClient(adminUrl, { poolSize: 1 });
  try {
    const existing = await prisma.$queryRaw<unknown[]>`
      SELECT 1 FROM pg_database WHERE datname = ${name}`;
    if (existing.length > 0) return;
    const template = options.template
      ? ` TEMPLATE ${quoteIdentifier(options.template)} STRATEGY FILE_COPY`
      : '';
    await prisma.$executeRawUnsafe(`CREATE DATABASE ${quoteIdentifier(name)}${template}`);
  } finally {
    await prisma.$disconnect();
  }
}
