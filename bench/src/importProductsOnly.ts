import { loadavg } from 'node:os';
import { freePort } from '@tablelock/test-support';
import { startApiProcess } from './apiProcess';
import { connectApiProfiler } from './apiProfiler';
import { createBenchCredentials } from './benchCredentials';
import { openBenchDatabase } from './benchDatabase';
import { cpuSpent } from './processesCpu';
import { profiledRuns } from './profiledRuns';
import { measureImport } from './scenarios/importProducts';

/**
 * `pnpm --filter @tablelock/bench bench:import-products [--quick] [--runs N] [--profile]
 * [--api-dir DIR]`: the products file as a user exports it, imported back (dry run, then apply)
 * as the full bench does, `--runs` times one after another on one API process, with the CPU time
 * the API and Postgres spend on each dry run (which other load moves far less than its time).
 * `--profile` writes the API's CPU profile of each run to results/import-products-<run>.cpuprofile
 * and prints its shares by step; `--api-dir` runs another build of the API (a copy of apps/api
 * beside it, to compare two builds taking turns).
 */
const quick = process.argv.includes('--quick');
const profile = process.argv.includes('--profile');
const runsAt = process.argv.indexOf('--runs');
const runs = runsAt >= 0 ? Number(process.argv[runsAt + 1]) : 3;
const rows = quick ? 10_000 : 100_000;
const apiDirAt = process.argv.indexOf('--api-dir');
const apiDir = apiDirAt >= 0 ? process.argv[apiDirAt + 1] : undefined;

const database = await openBenchDatabase(1);
const credentials = await createBenchCredentials(database.url, 1, 2);
const inspectPort = profile ? await freePort() : undefined;
const api = await startApiProcess(database.url, {
  poolSize: 10,
  ...(inspectPort ? { inspectPort } : {}),
  ...(apiDir ? { dir: apiDir } : {}),
});
const profiler = inspectPort ? await connectApiProfiler(inspectPort) : undefined;
const { profiled, write: writeProfiles } = profiledRuns(profiler);
try {
  console.log(`load average (1 min) ${(loadavg()[0] ?? 0).toFixed(2)}`);
  for (let run = 1; run <= runs; run++) {
    let cpu = { apiCpuMs: Number.NaN, postgresCpuMs: Number.NaN };
    const result = await profiled(`import-products-${run}`, () =>
      measureImport(api.url, credentials.editors[0] as string, api.pid, rows, async (dryRun) => {
        cpu = await cpuSpent(database.url, api.pid, dryRun);
      }),
    );
    console.log(
      `run ${run}: ${result.rows.toLocaleString('en')} rows (${result.megabytes.toFixed(1)} MB): dry run ${result.dryRunSeconds.toFixed(2)} s (CPU: API ${(cpu.apiCpuMs / 1000).toFixed(2)} s, Postgres ${(cpu.postgresCpuMs / 1000).toFixed(2)} s), apply ${result.applySeconds.toFixed(2)} s, API peak RSS ${result.apiPeakRssBeforeMb.toFixed(0)} → ${result.apiPeakRssAfterMb.toFixed(0)} MB, load ${(loadavg()[0] ?? 0).toFixed(2)}${result.firstError ? `, ERROR ${result.firstError}` : ''}`,
    );
    if (result.errors > 0) process.exitCode = 1;
  }
  await writeProfiles(new URL('../results', import.meta.url).pathname);
} finally {
  profiler?.close();
  await api.stop();
  await database.close();
}
