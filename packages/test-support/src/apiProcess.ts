import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { API_DIR, compiledMainIn } from './compiledApi';
import { freePort } from './freePort';

/** One compiled API (`node dist/main.js`), as deployed: its own Prisma pool, LISTEN connection and sweeper. */
export interface ApiProcess {
  name: string;
  url: string;
  child: ChildProcess;
  output: string[];
}

/**
 * The CPU time a start may take (a quiet machine's takes 2-5 s: loading modules, syncing the
 * registry and the guards). Counted in the process's own CPU time, not on the clock: under the
 * suite's load a start waited 30 s for the CPU and failed a clock's bound without being slow.
 */
const START_CPU_MS = 20_000;
/** Where the process's CPU time cannot be read (no /proc): a bound on the clock instead. */
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;

/**
 * Starts the API against `databaseUrl` (no demo data is loaded) and waits until it is healthy.
 * The process goes into `started` at once, so that the caller stops it even if it never gets healthy.
 * `settings` are further environment variables (config.ts) for it; `apiDir` is the apps/api whose
 * build it runs (another release's, in the upgrade drill).
 */
export async function startApiProcess(
  name: string,
  databaseUrl: string,
  port: number,
  started: ApiProcess[],
  settings: Record<string, string> = {},
  apiDir = API_DIR,
): Promise<ApiProcess> {
  const child = spawn(process.execPath, compiledMainIn(apiDir), {
    cwd: apiDir,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      // The suite starts hundreds of these, each read by a test at once (issue 39).
      WARM_UP: 'false',
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
  const pid = child.pid;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`API ${name} exited with ${child.exitCode}: ${api.output.join('')}`);
    }
    const healthy = await fetch(`${api.url}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return api;
    const cpuMs = pid === undefined ? null : await cpuTimeMs(pid);
    if (cpuMs === null ? Date.now() > deadline : cpuMs > START_CPU_MS) {
      const bound = cpuMs === null ? `${START_TIMEOUT_MS} ms` : `${START_CPU_MS} ms of CPU time`;
      throw new Error(`API ${name} not healthy within ${bound}: ${api.output.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** User and system CPU time of a process so far (Linux's /proc); null where it cannot be read. */
async function cpuTimeMs(pid: number): Promise<number | null> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  // The fields after the command's name, which is in parentheses and may hold spaces.
  const fields = stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
  const [utime, stime] = [Number(fields?.[11]), Number(fields?.[12])];
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) return null;
  return ((utime + stime) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** Linux reports CPU times in clock ticks, 100 a second on every architecture it runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

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
