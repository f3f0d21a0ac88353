import { loadavg } from 'node:os';
import { freePort } from '@tablelock/test-support';
import { startApiProcess, startBareServerProcess } from './apiProcess';
import { connectApiProfiler } from './apiProfiler';
import { createBenchCredentials } from './benchCredentials';
import { openBenchDatabase } from './benchDatabase';
import { withCpuPerOperation } from './cpuPerOperation';
import { profiledRuns } from './profiledRuns';
import {
  formatContention,
  formatSpread,
  percent,
  THROUGHPUT_HEADER,
  throughputRow,
} from './report';
import { runContention } from './scenarios/contention';
import { graphqlLockCycleSubject } from './scenarios/graphqlLockCycle';
import { ratioOf, runSideBySide, summarizeWindows, windowPlan } from './sideBySide';

/**
 * `pnpm --filter @tablelock/bench bench:lock-path [--quick] [--profile]`: the lock path against
 * its ceiling, as `pnpm bench` measures it, alone: the legacy lock cycle on the API and on the
 * bare server in turns at 1, 8 and 32 clients, with each server's CPU time per cycle, then the
 * 200-racer contention on each. With `--profile`, both servers' CPU profiles of both, summed up
 * by step (bench/results/lock-path-*.cpuprofile).
 */
const quick = process.argv.includes('--quick');
const profile = process.argv.includes('--profile');
const LEVELS = [1, 8, 32];
const CONTENTION = { racers: 200, rounds: quick ? 5 : 30 };
const API_POOL_SIZE = 10;
const resultsDir = new URL('../results', import.meta.url).pathname;

const windows = windowPlan(quick);
const loadAtStart = loadavg();
const database = await openBenchDatabase(Math.max(...LEVELS));
const credentials = await createBenchCredentials(
  database.url,
  Math.max(...LEVELS),
  CONTENTION.racers,
);
const apiInspectPort = profile ? await freePort() : undefined;
const bareInspectPort = profile ? await freePort() : undefined;
const api = await startApiProcess(database.url, {
  poolSize: API_POOL_SIZE,
  ...(apiInspectPort ? { inspectPort: apiInspectPort } : {}),
});
const bare = await startBareServerProcess(database.url, API_POOL_SIZE, bareInspectPort);
const apiProfiler = apiInspectPort ? await connectApiProfiler(apiInspectPort) : undefined;
const bareProfiler = bareInspectPort ? await connectApiProfiler(bareInspectPort) : undefined;
const apiRuns = profiledRuns(apiProfiler);
const bareRuns = profiledRuns(bareProfiler, "the bare server's");
const profiledBoth = <T>(name: string, work: () => Promise<T>) =>
  apiRuns.profiled(name, () => bareRuns.profiled(`${name}-bare`, work));

const graphql = withCpuPerOperation(
  graphqlLockCycleSubject(api.url, credentials.editors),
  api.pid,
  windows.windowMs,
);
const bareCycle = withCpuPerOperation(
  graphqlLockCycleSubject(bare.url, credentials.editors),
  bare.pid,
  windows.windowMs,
);
const rows = [THROUGHPUT_HEADER];
const ratios = ['tablelock GraphQL over the bare server (throughput ratio; p50 latency ratio):'];
const cpu = ["each server's CPU ms per acquire + release (tablelock; bare; tablelock over bare):"];
try {
  await profiledBoth('lock-path-cycle', async () => {
    for (const clients of LEVELS) {
      console.log(`lock cycle at ${clients} client(s), tablelock and bare in turns…`);
      const measured = await runSideBySide(
        { graphql: graphql.subject, bare: bareCycle.subject },
        clients,
        windows,
      );
      rows.push(throughputRow('tablelock GraphQL', summarizeWindows(measured.graphql)));
      rows.push(throughputRow('bare Express + Apollo', summarizeWindows(measured.bare)));
      const ratio = ratioOf(measured.graphql, measured.bare);
      ratios.push(
        `  ${String(clients).padStart(2)} clients: ${formatSpread(ratio.throughput, percent)}; ` +
          `${formatSpread(ratio.latencyP50, (v) => `${v.toFixed(2)}×`)}`,
      );
      const ours = graphql.takeSpread();
      const theirs = bareCycle.takeSpread();
      cpu.push(
        `  ${String(clients).padStart(2)} clients: ${formatSpread(ours, (v) => v.toFixed(2))}; ` +
          `${formatSpread(theirs, (v) => v.toFixed(2))}; ${percent(ours.median / theirs.median)}`,
      );
    }
  });
  console.log('contention…');
  const contention = await apiRuns.profiled('lock-path-contention', () =>
    runContention(api.url, credentials.racers, CONTENTION.rounds),
  );
  console.log('contention on the bare server…');
  const bareContention = await bareRuns.profiled('lock-path-contention-bare', () =>
    runContention(bare.url, credentials.racers, CONTENTION.rounds),
  );
  const loadAtEnd = loadavg();
  console.log(
    [
      '',
      `load average (1, 5, 15 min): ${loadAtStart.map((v) => v.toFixed(2)).join(', ')} at the start, ` +
        `${loadAtEnd.map((v) => v.toFixed(2)).join(', ')} at the end`,
      `each figure: the median of ${windows.windows} window(s) of ${(windows.windowMs / 1000).toFixed(0)} s (min–max in brackets)`,
      ...rows,
      '',
      ...ratios,
      '',
      ...cpu,
      '',
      ...formatContention(contention, bareContention),
    ].join('\n'),
  );
  await apiRuns.write(resultsDir);
  await bareRuns.write(resultsDir);
} finally {
  apiProfiler?.close();
  bareProfiler?.close();
  await api.stop();
  await bare.stop();
  await database.close();
}
