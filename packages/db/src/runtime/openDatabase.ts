import { mkdir } from 'node:fs/promises';
import { createDatabase } from '../access/createDatabase';
import { withDatabase } from '../access/databaseUrl';
import { applyMigrations } from './applyMigrations';
import { startEmbeddedPostgres } from './embeddedPostgres';
import type { PostgresSupervision } from './postgresSupervisor';

export interface OpenDatabaseOptions {
  /** An external Postgres; when absent, an embedded one is started under `dataDir`. */
  databaseUrl?: string;
  /**
   * The external Postgres without a connection pooler in between (defaults to `databaseUrl`):
   * migrations run there, not on a pooled connection.
   */
  directDatabaseUrl?: string;
  dataDir: string;
  embeddedPort: number;
  /** What the embedded Postgres prints. */
  onLog?: (message: string) => void;
  /** What the start did about a Postgres or a postmaster.pid that a crashed run left behind. */
  onNotice?: (message: string) => void;
  /** The embedded Postgres is started again whenever it dies, and this is told. */
  supervision?: PostgresSupervision;
}

export interface OpenDatabase {
  url: string;
  /** The database without a pooler in between, for sessions of their own (LISTEN). */
  directUrl: string;
  /** True when this process started its own Postgres (the demo setup). */
  embedded: boolean;
  /** Stops the embedded Postgres, if this process started one. */
  close(): Promise<void>;
}

export const EMBEDDED_DATABASE = 'tablelock';

/** Connects to the configured Postgres (or starts the embedded one) and migrates it. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<OpenDatabase> {
  if (options.databaseUrl) {
    const directUrl = options.directDatabaseUrl ?? options.databaseUrl;
    await applyMigrations(directUrl);
    return { url: options.databaseUrl, directUrl, embedded: false, close: async () => {} };
  }
  await mkdir(options.dataDir, { recursive: true });
  const server = await startEmbeddedPostgres({
    dataDir: options.dataDir,
    port: options.embeddedPort,
    ...(options.onLog ? { onLog: options.onLog } : {}),
    ...(options.onNotice ? { onNotice: options.onNotice } : {}),
    ...(options.supervision ? { supervision: options.supervision } : {}),
  });
  try {
    await createDatabase(server.adminUrl, EMBEDDED_DATABASE);
    const url = withDatabase(server.adminUrl, EMBEDDED_DATABASE);
    await applyMigrations(url);
    return { url, directUrl: url, embedded: true, close: server.stop };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
