import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { runningProcess } from './runningProcess';
import { StartupError } from './startupError';

/**
 * A Postgres setting (on its command line) naming the process that started it: while that
 * process lives it is Postgres's parent; once Postgres has another parent, its starter is gone.
 */
export const STARTER_SETTING = 'tablelock.started_by';

const LEFTOVER_STOP_TIMEOUT_MS = 30_000;
const POLL_MS = 100;

/**
 * Frees the cluster in `dataDir` for a Postgres of this process, going by its postmaster.pid:
 * - no such file, or one naming a process that is gone: nothing to do (Postgres replaces it);
 * - unreadable, or naming a process that is no Postgres (its pid reused): the file is removed;
 * - a Postgres on this directory that a crashed run left running: stopped (fast shutdown:
 *   SIGINT, as `pg_ctl stop -m fast`), and waited for;
 * - a Postgres on this directory whose starter still runs: left alone, and this start refused;
 * - any other Postgres: left to Postgres, which refuses to start while it runs.
 * `notice` gets a sentence for each thing done.
 */
export async function clearLeftoverPostgres(
  dataDir: string,
  notice: (message: string) => void,
): Promise<void> {
  const lockFile = join(dataDir, 'postmaster.pid');
  const content = await readFile(lockFile, 'utf8').catch(() => undefined);
  if (content === undefined) return;
  const pid = Number(content.split('\n')[0]);
  // Left empty or cut short by a crash, say: Postgres would refuse to start with it.
  if (!Number.isInteger(pid) || pid <= 0) {
    await rm(lockFile, { force: true });
    notice('removed a stale postmaster.pid that names no process');
    return;
  }
  const holder = await runningProcess(pid).catch(() => null);
  if (holder === null) {
    notice(`cannot tell whether pid ${pid} of postmaster.pid runs; leaving it to Postgres`);
    return;
  }
  if (!holder) {
    notice(`found a stale postmaster.pid (pid ${pid} is not running); Postgres replaces it`);
    return;
  }
  if (!/(^|\/)postgres(\s|$)/.test(holder.command)) {
    await rm(lockFile, { force: true });
    notice(`removed a stale postmaster.pid (pid ${pid} is now another program, not Postgres)`);
    return;
  }
  if (!holder.command.includes(`-D ${dataDir} `)) return;
  const starter = Number(new RegExp(`${STARTER_SETTING}=(\\d+)`).exec(holder.command)?.[1]);
  if (starter === holder.parentPid) {
    throw new StartupError(
      `Another tablelock process (pid ${starter}) is already running on ${dataDir}; stop it first, or give this one its own TABLELOCK_DATA_DIR and ports (EMBEDDED_PG_PORT, PORT).`,
    );
  }
  try {
    process.kill(pid, 'SIGINT');
  } catch {
    // Gone in the meantime, or not ours to signal: the wait below tells which.
  }
  const deadline = Date.now() + LEFTOVER_STOP_TIMEOUT_MS;
  while (await runningProcess(pid)) {
    if (Date.now() > deadline) {
      throw new StartupError(
        `The Postgres (pid ${pid}) that an earlier run left running on ${dataDir} did not stop within ${LEFTOVER_STOP_TIMEOUT_MS / 1000} s; stop it (kill ${pid}) and start again.`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  notice(`stopped the Postgres (pid ${pid}) that an earlier run left running on ${dataDir}`);
}
