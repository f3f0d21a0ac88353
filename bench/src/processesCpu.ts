import pg from 'pg';
import { cpuMsOf } from './cpuPerOperation';

/** CPU time that the API process and the database server's processes spend while `work` runs. */
export interface CpuSpent<T> {
  result: T;
  apiCpuMs: number;
  postgresCpuMs: number;
}

/**
 * Counts the CPU time (user + system, from /proc: Linux, and the server on this machine) of the
 * API process `apiPid` and of every process of the database server at `databaseUrl` (backends
 * and its own workers, as pg_stat_activity lists them) while `work` runs: a figure that other
 * load on a shared machine moves far less than the time it takes. A process that starts and
 * ends within `work` (a parallel worker) is not counted.
 */
export async function cpuSpent<T>(
  databaseUrl: string,
  apiPid: number,
  work: () => Promise<T>,
): Promise<CpuSpent<T>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const serverPids = async () =>
      (await client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity')).rows.map(
        (row) => row.pid,
      );
    const cpuOf = async (pids: number[]) => {
      const spent = new Map<number, number>();
      for (const pid of pids) {
        // A process may have ended since it was listed.
        const ms = await cpuMsOf(pid).catch(() => undefined);
        if (ms !== undefined) spent.set(pid, ms);
      }
      return spent;
    };
    const postgresBefore = await cpuOf(await serverPids());
    const apiBefore = await cpuMsOf(apiPid);
    const result = await work();
    const apiCpuMs = (await cpuMsOf(apiPid)) - apiBefore;
    const postgresAfter = await cpuOf(await serverPids());
    let postgresCpuMs = 0;
    for (const [pid, ms] of postgresAfter) postgresCpuMs += ms - (postgresBefore.get(pid) ?? 0);
    return { result, apiCpuMs, postgresCpuMs };
  } finally {
    await client.end();
  }
}
