import { spawn } from 'node:child_process';
import type { Socket } from 'node:net';

export interface PostgresWatchdog {
  /** After Postgres has been stopped: the watchdog ends without signalling anyone. */
  dismiss(): void;
}

/**
 * Makes Postgres `pid` die with this process, however this process ends (SIGKILL, a crash):
 * Postgres does not watch its parent, so a killed app would leave it running. A `sh` child
 * blocks reading a pipe whose other end only this process holds; the kernel closes that end
 * when this process exits, and `sh` then asks Postgres for a fast shutdown (SIGINT).
 */
export function watchPostgres(pid: number, onLog: (message: string) => void): PostgresWatchdog {
  const watchdog = spawn('sh', ['-c', 'read -r _; kill -INT "$1"', 'postgres-watchdog', `${pid}`], {
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  watchdog.on('error', (error) => onLog(`Postgres runs without a watchdog: ${error.message}`));
  // Neither the watchdog nor its pipe may keep this process alive.
  watchdog.unref();
  (watchdog.stdin as Socket | null)?.unref();
  return { dismiss: () => watchdog.kill('SIGKILL') };
}
