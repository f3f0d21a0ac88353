import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@tablelock/test-support/freePort';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const webDir = join(repoRoot, 'apps/web');
const apiDir = join(repoRoot, 'apps/api');
const START_TIMEOUT_MS = 90_000;

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
 * Builds the web app and the API and starts the real app as `npm start` runs it (compiled; API
 * + UI on one port) on a fresh embedded Postgres in a temporary directory, on free ports, so a
 * run never touches a developer's data or a running instance. Tests find it at
 * TABLELOCK_E2E_URL. Returns the teardown.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  execFileSync(join(webDir, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], {
    cwd: webDir,
    stdio: 'inherit',
  });
  execFileSync(join(apiDir, 'node_modules/.bin/tsup'), ['--silent'], {
    cwd: apiDir,
    stdio: 'inherit',
  });
  const dataDir = await mkdtemp(join(tmpdir(), 'tablelock-e2e-'));
  // Run as root, embedded Postgres initialises its cluster as a separate user, who must be able
  // to enter the directory (mkdtemp makes it private).
  await chmod(dataDir, 0o755);
  const port = await freePort();
  const databasePort = await freePort();
  const server = spawn(process.execPath, ['--enable-source-maps', 'dist/main.js'], {
    cwd: apiDir,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      EMBEDDED_PG_PORT: String(databasePort),
      TABLELOCK_DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const stop = async () => {
    // SIGTERM lets the app stop its embedded Postgres cleanly before the directory goes.
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await once(server, 'exit');
    }
    await rm(dataDir, { recursive: true, force: true });
  };
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitUntilHealthy(`${baseUrl}/healthz`, server);
  } catch (error) {
    await stop();
    throw error;
  }
  process.env.TABLELOCK_E2E_URL = baseUrl;
  // For tests that play someone writing straight to the database, past the app and its locks.
  process.env.TABLELOCK_E2E_DATABASE_URL = `postgres://postgres:postgres@127.0.0.1:${databasePort}/tablelock`;
  return stop;
}
