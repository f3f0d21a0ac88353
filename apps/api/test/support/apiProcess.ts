import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { freePort } from '@tablelock/test-support';
import type { TypedDocumentString } from '../generated/graphql';
import { COMPILED_MAIN } from './compiledApi';
import type { GraphQLResponse } from './testApi';

/** One compiled API (`node dist/main.js`), as deployed: its own Prisma pool, LISTEN connection and sweeper. */
export interface ApiProcess {
  name: string;
  url: string;
  child: ChildProcess;
  output: string[];
}

const API_DIR = new URL('../..', import.meta.url).pathname;
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;

/**
 * Starts the API against `databaseUrl` (no demo data is loaded) and waits until it is healthy.
 * The process goes into `started` at once, so that the caller stops it even if it never gets healthy.
 * `settings` are further environment variables (config.ts) for it.
 */
export async function startApiProcess(
  name: string,
  databaseUrl: string,
  port: number,
  started: ApiProcess[],
  settings: Record<string, string> = {},
): Promise<ApiProcess> {
  const child = spawn(process.execPath, COMPILED_MAIN, {
    cwd: API_DIR,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...settings,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const api: ApiProcess = { name, url: `http://127.0.0.1:${port}`, child, output: [] };
  started.push(api);
  child.stdout?.on('data', (chunk) => api.output.push(String(chunk)));
  child.stderr?.on('data', (chunk) => api.output.push(String(chunk)));
  // Ready when it answers its health check; startup time varies (migrations, registry sync).
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`API ${name} exited with ${child.exitCode}: ${api.output.join('')}`);
    }
    const healthy = await fetch(`${api.url}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return api;
    if (Date.now() > deadline) {
      throw new Error(
        `API ${name} not healthy within ${START_TIMEOUT_MS} ms: ${api.output.join('')}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** SIGTERM (a clean shutdown), SIGKILL if it has not exited after STOP_TIMEOUT_MS. */
export async function stopApiProcess(api: ApiProcess): Promise<void> {
  const { child } = api;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(killer);
}

/** Two distinct free ports: freePort() may hand out the same one twice if nothing binds it in between. */
export async function twoPorts(): Promise<[number, number]> {
  const first = await freePort();
  for (;;) {
    const second = await freePort();
    if (second !== first) return [first, second];
  }
}

/** Sends a typed operation to `api` with API key `secret`, as `execute` does to a TestClient. */
export async function callWithKey<TResult, TVariables>(
  api: ApiProcess,
  secret: string,
  document: TypedDocumentString<TResult, TVariables>,
  variables: TVariables,
): Promise<GraphQLResponse<TResult>> {
  const response = await fetch(`${api.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
    body: JSON.stringify({ query: document.toString(), variables }),
  });
  return (await response.json()) as GraphQLResponse<TResult>;
}
