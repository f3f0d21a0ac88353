import { createPrismaClient } from './prismaClient';
import { quoteIdentifier } from './quoteIdentifier';

/**
 * Creates database `name` on the server of `adminUrl` unless it exists, optionally as a copy
 * of `template` (a fast file copy, which is how tests get a fresh database that already holds
 * the demo data).
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
    const template = options.template ? ` TEMPLATE ${quoteIdentifier(options.template)}` : '';
    await prisma.$executeRawUnsafe(`CREATE DATABASE ${quoteIdentifier(name)}${template}`);
  } finally {
    await prisma.$disconnect();
  }
}
