import { type ChildProcess, spawn } from 'node:child_process';
import { freePort } from '@tablelock/test-support';

/**
 * The API to measure: this checkout's, or (TABLELOCK_BENCH_API_DIR) the `apps/api` folder of
 * another built checkout, to compare two versions under the same conditions.
 */
const apiDir =
  process.env.TABLELOCK_BENCH_API_DIR ?? new URL('../../apps/api', import.meta.url).pathname;

export interface ApiProcess {
  url: string;
  /** The API process itself (its memory is read from /proc). */
  pid: number;
  stop(): Promise<void>;
}

export interface ApiProcessOptions {
  poolSize: number;
  /** The built `apps/api` folder to run (default: as above). */
  dir?: string;
  /** Open the API process's inspector on this port of 127.0.0.1 (see apiProfiler). */
  inspectPort?: number;
  /** Further settings (config.ts) for it. */
  settings?: Record<string, string>;
}

/** Starts the real API, compiled (`pnpm start`'s process), against `databaseUrl` and waits until it serves. */
export async function startApiProcess(
  databaseUrl: string,
  options: ApiProcessOptions,
): Promise<ApiProcess> {
  const inspect = options.inspectPort ? [`--inspect=127.0.0.1:${options.inspectPort}`] : [];
  return startServerProcess(
    [...inspect, '--enable-source-maps', 'dist/main.js'],
    options.dir ?? apiDir,
    {
      DATABASE_URL: databaseUrl,
      HOST: '127.0.0.1',
      DB_POOL_SIZE: String(options.poolSize),
      // As on the embedded database: sorting a large table builds the index its pages need.
      SORT_INDEXES: 'auto',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      ...options.settings,
    },
  );
}

/** Starts the bare GraphQL server (bareServer.ts) against `databaseUrl` and waits until it serves; its inspector on `inspectPort` when given. */
export function startBareServerProcess(
  databaseUrl: string,
  poolSize: number,
  inspectPort?: number,
): Promise<ApiProcess> {
  const inspect = inspectPort ? [`--inspect=127.0.0.1:${inspectPort}`] : [];
  return startServerProcess(
    [...inspect, '--import', 'tsx', new URL('bareServer.ts', import.meta.url).pathname],
    new URL('..', import.meta.url).pathname,
    { DATABASE_URL: databaseUrl, DB_POOL_SIZE: String(poolSize), NODE_ENV: 'production' },
  );
}

/** Runs `node args` in `cwd` with `env` and a free PORT, until it answers `/healthz`. */
async function startServerProcess(
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<ApiProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitUntilHealthy(url, child);
  return {
    url,
    pid: child.pid ?? Number.NaN,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

async function waitUntilHealthy(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('server did not become healthy within 60 s');
}
