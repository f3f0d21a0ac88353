import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { freePort } from '@tablelock/test-support/freePort';
import { copyDataTemplate, newDataDir } from './dataTemplate';

const apiDir = fileURLToPath(new URL('../../apps/api', import.meta.url));
const START_TIMEOUT_MS = 90_000;

export interface RunningApp {
  /** Where the app (web app and GraphQL) answers. */
  url: string;
  /** Its embedded Postgres's database, for tests that shape the master schema. */
  databaseUrl: string;
  stop(): Promise<void>;
}

async function waitUntilHealthy(url: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the app exited with code ${server.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the app did not become healthy within ${START_TIMEOUT_MS / 1000} s`);
}

/**
 * Starts the compiled app (built already: see globalSetup) as `npm start` runs it, on an
 * embedded Postgres of its own in a temporary directory (a copy of the run's data template,
 * support/dataTemplate.ts), on free ports, so a run never touches a developer's data or a
 * running instance. `port`: where to listen when the caller needs to know it first (a redirect
 * URL registered at an OpenID provider); `env`: more settings; `dataDir`: a directory of the
 * caller's to start on as it is and keep after the stop.
 */
export async function startApp(
  options: { port?: number; env?: Record<string, string>; dataDir?: string } = {},
): Promise<RunningApp> {
  const ownDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await newDataDir());
  if (ownDataDir) await copyDataTemplate(dataDir);
  const port = options.port ?? (await freePort());
  const postgresPort = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ['--enable-source-maps', 'dist/main.js'], {
    cwd: apiDir,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      EMBEDDED_PG_PORT: String(postgresPort),
      TABLELOCK_DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...options.env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const stop = async () => {
    // SIGTERM lets the app stop its embedded Postgres cleanly before the directory goes.
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await once(server, 'exit');
    }
    if (ownDataDir) await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await waitUntilHealthy(`${url}/healthz`, server);
  } catch (error) {
    await stop();
    throw error;
  }
  // The embedded Postgres's own superuser (packages/db) and the app's database on it.
  return {
    url,
    databaseUrl: `postgresql://postgres:postgres@127.0.0.1:${postgresPort}/tablelock`,
    stop,
  };
}
