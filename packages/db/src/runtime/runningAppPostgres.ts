import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { STARTER_SETTING } from './leftoverPostgres';
import { runningProcess } from './runningProcess';

/**
 * The port of the Postgres that a running tablelock app started on the cluster in `dataDir`
 * (absolute), going by its postmaster.pid; undefined when none runs, or only one that a crashed
 * app left behind.
 */
export async function runningAppPostgresPort(dataDir: string): Promise<number | undefined> {
  const content = await readFile(join(dataDir, 'postmaster.pid'), 'utf8').catch(() => undefined);
  // postmaster.pid: the pid, the data directory, the start time, the port, ...
  const [pid, , , port] = content?.split('\n') ?? [];
  const holder = await runningProcess(Number(pid)).catch(() => undefined);
  if (!holder?.command.includes(`-D ${dataDir} `)) return undefined;
  const starter = Number(new RegExp(`${STARTER_SETTING}=(\\d+)`).exec(holder.command)?.[1]);
  return starter === holder.parentPid ? Number(port) : undefined;
}
