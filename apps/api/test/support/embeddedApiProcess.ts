import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { API_DIR, COMPILED_MAIN } from '@tablelock/test-support';

/** One compiled API (`node dist/main.js`) on the embedded Postgres, as `npm start` runs it. */
export interface EmbeddedApiProcess {
  url: string;
  child: ChildProcess;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves when it has exited, with its status (null when a signal ended it). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const POLL_MS = 100;

/** Starts the API on the cluster under `dataDir`/postgres; `started` gets it at once, for cleanup. */
export function startEmbeddedApi(
  settings: { dataDir: string; port: number; embeddedPort: number; env?: NodeJS.ProcessEnv },
  started: EmbeddedApiProcess[],
): EmbeddedApiProcess {
  // Never an external database, whatever the caller's environment says.
  const { DATABASE_URL: _external, ...env } = process.env;
  const child = spawn(process.execPath, COMPILED_MAIN, {
    cwd: API_DIR,
    env: {
      ...env,
      TABLELOCK_DATA_DIR: settings.dataDir,
      PORT: String(settings.port),
      EMBEDDED_PG_PORT: String(settings.embeddedPort),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ...settings.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: string[] = [];
  child.stdout?.on('data', (chunk) => chunks.push(String(chunk)));
  child.stderr?.on('data', (chunk) => chunks.push(String(chunk)));
  const api: EmbeddedApiProcess = {
    url: `http://127.0.0.1:${settings.port}`,
    child,
    output: () => chunks.join(''),
    exited: once(child, 'exit').then(([code, signal]) => ({ code, signal })),
  };
  started.push(api);
  return api;
}

/** Polls `condition` until it holds; fails after `timeoutMs` with `what`. */
export async function waitFor(
  what: string,
  timeoutMs: number,
  condition: () => boolean | Promise<boolean>,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

export function hasExited(api: EmbeddedApiProcess): boolean {
  return api.child.exitCode !== null || api.child.signalCode !== null;
}

/** The process's pino lines (JSON), other output ignored. */
export function logLines(api: EmbeddedApiProcess): { level: number; msg: string }[] {
  return api
    .output()
    .split('\n')
    .flatMap((line) => {
      try {
        return [JSON.parse(line)];
      } catch {
        return [];
      }
    });
}

/** Waits until `/healthz` answers; fails at once, with its output, if the process exits. */
export async function waitUntilServing(api: EmbeddedApiProcess, timeoutMs = 60_000): Promise<void> {
  await waitFor(`API at ${api.url} healthy`, timeoutMs, async () => {
    if (hasExited(api)) throw new Error(`the API exited during its start:\n${api.output()}`);
    return fetch(`${api.url}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
  });
}

/** The demo user alice logs in: a GraphQL operation that needs the database. */
export async function logInAsAlice(api: EmbeddedApiProcess): Promise<unknown> {
  const response = await fetch(`${api.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query: 'mutation { login(username: "alice", password: "tablelock-demo") { name role } }',
    }),
  });
  return response.json();
}

/** The pid in the cluster's postmaster.pid, if there is one. */
export async function postmasterPid(clusterDir: string): Promise<number | undefined> {
  const content = await readFile(`${clusterDir}/postmaster.pid`, 'utf8').catch(() => undefined);
  return content === undefined ? undefined : Number(content.split('\n')[0]);
}

/**
 * Whether `pid` runs (Linux: /proc). A zombie does not: an orphan that exited waits there until
 * the machine's init reaps it, which here can take a while.
 */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !['Z', 'X'].includes(stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3));
  } catch {
    return false;
  }
}

/** The command line of `pid` (Linux: /proc), empty when it is gone. */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

/** The processes `pid` started that are still running (Linux: /proc). */
export async function childrenOf(pid: number): Promise<number[]> {
  const list = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
  return list.split(' ').filter(Boolean).map(Number);
}

/** Sends `signal` and waits for the exit; SIGKILL if it is still running after `timeoutMs`. */
export async function stopProcess(
  api: EmbeddedApiProcess,
  signal: NodeJS.Signals = 'SIGKILL',
  timeoutMs = 15_000,
): Promise<void> {
  if (hasExited(api)) return;
  api.child.kill(signal);
  const killer = setTimeout(() => api.child.kill('SIGKILL'), timeoutMs);
  await api.exited;
  clearTimeout(killer);
}

/**
 * After a test: kills the API processes it started and any Postgres they ran on `clusterDir`
 * that still runs (a Postgres whose API was killed with its watchdog, say).
 */
export async function stopStartedProcesses(
  started: EmbeddedApiProcess[],
  postgresPids: Set<number>,
  clusterDir: string,
): Promise<void> {
  await Promise.all(started.splice(0).map((api) => stopProcess(api, 'SIGKILL')));
  for (const pid of postgresPids) {
    // Only while that pid is still a Postgres on the tests' cluster: pids get reused.
    if (isAlive(pid) && commandLine(pid).includes(clusterDir)) {
      process.kill(pid, 'SIGINT');
      await waitFor(`Postgres ${pid} stopped`, 15_000, () => !isAlive(pid)).catch(() =>
        process.kill(pid, 'SIGKILL'),
      );
    }
  }
  postgresPids.clear();
}

/** Signs `username` (a demo user) in; the cookie header that carries the session. */
export async function signIn(api: EmbeddedApiProcess, username: string): Promise<string> {
  const response = await fetch(`${api.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query:
        'mutation($username: String!) { login(username: $username, password: "tablelock-demo") { name } }',
      variables: { username },
    }),
  });
  const cookie = response.headers.getSetCookie()[0]?.split(';')[0];
  if (!response.ok || !cookie)
    throw new Error(`${username} could not sign in: ${await response.text()}`);
  return cookie;
}

/**
 * The pid of the Postgres running on `clusterDir` (it fails if none runs), added to `pids`, the
 * Postgres processes a test file stops after each test (stopStartedProcesses).
 */
export async function runningPostgres(clusterDir: string, pids: Set<number>): Promise<number> {
  const pid = await postmasterPid(clusterDir);
  if (pid === undefined || !isAlive(pid)) throw new Error('no Postgres runs on the cluster');
  pids.add(pid);
  return pid;
}
