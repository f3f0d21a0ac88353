import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { embeddedPostgresUrl } from './embeddedPostgres';
import {
  EMBEDDED_DATABASE,
  type OpenDatabase,
  type OpenDatabaseOptions,
  openDatabase,
} from './openDatabase';
import { runningAppPostgresPort } from './runningAppPostgres';
import { StartupError } from './startupError';

/**
 * The database of the operator command line. The external one when configured. Otherwise the
 * embedded cluster in `dataDir`: through the Postgres of the app running on it, or started for
 * the command while no app runs. It never creates a cluster: one made here would be a second,
 * empty database that no app serves.
 */
export async function openOperatorDatabase(options: OpenDatabaseOptions): Promise<OpenDatabase> {
  if (options.databaseUrl) return openDatabase(options);
  const dataDir = resolve(options.dataDir);
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    throw new StartupError(
      `No tablelock database in ${dataDir}: start the app first (npm start), or run this command with the app's TABLELOCK_DATA_DIR or DATABASE_URL.`,
    );
  }
  const port = await runningAppPostgresPort(dataDir);
  if (port === undefined) return openDatabase(options);
  // The running app has migrated it, and stops it: nothing to do at either end.
  const url = embeddedPostgresUrl(port, EMBEDDED_DATABASE);
  return { url, directUrl: url, embedded: false, close: async () => {} };
}
