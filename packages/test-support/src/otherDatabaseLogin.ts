import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '@tablelock/db';

/** A database login of its own and the URL that connects as it. */
export interface OtherDatabaseLogin {
  role: string;
  url: string;
}

/**
 * A second database login that is not tablelock's, as an ETL job or another application would
 * have: it may write the master tables of `schema` and call `tablelock.use_lock`, nothing more.
 */
export async function createOtherDatabaseLogin(
  prisma: PrismaClient,
  databaseUrl: string,
  schema: string,
): Promise<OtherDatabaseLogin> {
  const role = `etl_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const password = randomUUID();
  await prisma.$executeRawUnsafe(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
  await prisma.$executeRawUnsafe(`GRANT USAGE ON SCHEMA ${schema} TO ${role}`);
  await prisma.$executeRawUnsafe(
    `GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON ALL TABLES IN SCHEMA ${schema} TO ${role}`,
  );
  await prisma.$executeRawUnsafe(`GRANT USAGE ON SCHEMA tablelock TO ${role}`);
  const url = new URL(databaseUrl);
  url.username = role;
  url.password = password;
  return { role, url: url.href };
}
