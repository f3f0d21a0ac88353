import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PrismaClient } from '@tablelock/db';
import { createOtherDatabaseLogin } from '@tablelock/test-support';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/**
 * A second database login that is not tablelock's (createOtherDatabaseLogin), connected as an
 * ETL job would be.
 */
export interface OtherWriter {
  role: string;
  connect(applicationName?: string): Promise<pg.Client>;
}

export async function createOtherWriter(
  prisma: PrismaClient,
  databaseUrl: string,
  schema: string,
): Promise<OtherWriter> {
  const login = await createOtherDatabaseLogin(prisma, databaseUrl, schema);
  return {
    role: login.role,
    async connect(applicationName = 'nightly-etl') {
      const client = new pg.Client({
        connectionString: login.url,
        application_name: applicationName,
      });
      await client.connect();
      return client;
    },
  };
}

/** COPY of tab-separated `lines` into `table` through `client`. */
export async function copyInto(client: pg.Client, table: string, lines: string[]): Promise<void> {
  const stream = client.query(copyFrom(`COPY ${table} FROM STDIN`));
  await pipeline(Readable.from(lines.map((line) => `${line}\n`)), stream);
}

/** The SQLSTATE of what `run` threw, with the error; fails when it did not throw. */
export async function refusal(
  run: () => Promise<unknown>,
): Promise<{ code: string; message: string; hint?: string }> {
  try {
    await run();
  } catch (error) {
    const { code = '', message, hint } = error as pg.DatabaseError;
    return { code, message, ...(hint ? { hint } : {}) };
  }
  throw new Error('The write was not refused.');
}
