import { readFile } from 'node:fs/promises';
import { runClosedLoop } from './runClosedLoop';
import type { Subject } from './sideBySide';
import { type Spread, spreadOf } from './spread';

// /proc/<pid>/stat counts CPU time in clock ticks: 100 a second on Linux.
const TICKS_PER_SECOND = 100;

/** CPU time (user + system) process `pid` has used so far, in ms; from /proc (Linux). */
export async function cpuMsOf(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // The fields after the command name (which may hold spaces): state, ppid, …, utime, stime.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

export interface CpuPerOperation {
  subject: Subject;
  /** CPU ms per operation in each measured window since the last call; then starts afresh. */
  takeSpread(): Spread;
}

/**
 * `subject`, also counting the CPU time the server process `pid` spends per operation in each
 * window of `measuredWindowMs` (warm-ups are shorter): a figure that other load on the machine
 * moves far less than throughput.
 */
export function withCpuPerOperation(
  subject: Subject,
  pid: number,
  measuredWindowMs: number,
): CpuPerOperation {
  let perWindow: number[] = [];
  return {
    subject: {
      async open(clients) {
        const opened = await subject.open(clients);
        if (!('operation' in opened)) throw new Error('withCpuPerOperation needs an operation');
        return {
          close: opened.close,
          async runWindow(durationMs) {
            const before = await cpuMsOf(pid);
            const window = await runClosedLoop(clients, durationMs, opened.operation);
            const spent = (await cpuMsOf(pid)) - before;
            if (durationMs === measuredWindowMs && window.operations > 0) {
              perWindow.push(spent / window.operations);
            }
            return window;
          },
        };
      },
    },
    takeSpread() {
      const spread = spreadOf(perWindow);
      perWindow = [];
      return spread;
    },
  };
}
