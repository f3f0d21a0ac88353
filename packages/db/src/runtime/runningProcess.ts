import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';

export interface RunningProcess {
  parentPid: number;
  /** The command line, arguments joined by spaces. */
  command: string;
}

/**
 * The process `pid` with its parent and command line, or undefined when it does not run (a
 * zombie, exited but not yet reaped, does not). Reads /proc on Linux, asks `ps` elsewhere;
 * throws when it cannot tell.
 */
export async function runningProcess(pid: number): Promise<RunningProcess | undefined> {
  return process.platform === 'linux' ? fromProc(pid) : fromPs(pid);
}

async function fromProc(pid: number): Promise<RunningProcess | undefined> {
  try {
    const [stat, cmdline] = await Promise.all([
      readFile(`/proc/${pid}/stat`, 'utf8'),
      readFile(`/proc/${pid}/cmdline`, 'utf8'),
    ]);
    // "pid (name) state ppid ...": the name may hold spaces and parentheses, so read after the last ")".
    const [state, parentPid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (state === 'Z' || state === 'X') return undefined;
    return { parentPid: Number(parentPid), command: cmdline.split('\0').join(' ').trim() };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

async function fromPs(pid: number): Promise<RunningProcess | undefined> {
  const columns = ['-o', 'stat=', '-o', 'ppid=', '-o', 'args='];
  const listed = await promisify(execFile)('ps', [...columns, '-p', String(pid)])
    .then(({ stdout }) => stdout.trim())
    // ps exits with 1 when no such process runs.
    .catch((error: { code?: unknown }) => {
      if (error.code === 1) return '';
      throw error;
    });
  const [, state, parentPid, command] = /^(\S+)\s+(\d+)\s+(.*)$/.exec(listed) ?? [];
  if (!state || state.startsWith('Z')) return undefined;
  return { parentPid: Number(parentPid), command: command ?? '' };
}
