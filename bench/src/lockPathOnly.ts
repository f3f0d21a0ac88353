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
import type { WindowResult } from './runClosedLoop';
import { runContention } from './scenarios/contention';
import { graphqlLockCycleSubject } from './scenarios/graphqlLockCycle';
import { ratioOf, runSideBySide, type Subject, summarizeWindows, windowPlan } from './sideBySide';

/**
 * `pnpm --filter @tablelock/bench bench:lock-path [--quick] [--profile]`: the lock path against
 * its ceiling, as `pnpm bench` measures it, alone: the legacy lock cycle on the API and on the
 * bare server in turns at 1, 8 and 32 clients, with each server's CPU time per cycle, then the
 * 200-racer contention on each. With `--profile`, both servers' CPU profiles of both, summed up
 * by step (bench/results/lock-path-*.cpuprofile). With TABLELOCK_BENCH_BASELINE_API_DIR (the
 * `apps/api` folder of another built checkout), that API runs in the same turns too, and this
 * one's figures are also given over it: a change measured before and after in the same windows.
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
const baselineDir = process.env.TABLELOCK_BENCH_BASELINE_API_DIR;
const baseline = baselineDir
  ? await startApiProcess(database.url, { poolSize: API_POOL_SIZE, dir: baselineDir })
  : undefined;
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
const baselineCycle = baseline
  ? withCpuPerOperation(
      graphqlLockCycleSubject(baseline.url, credentials.editors),
      baseline.pid,
      windows.windowMs,
    )
  : undefined;
const subjects: Record<string, Subject> = { graphql: graphql.subject, bare: bareCycle.subject };
if (baselineCycle) subjects.baseline = baselineCycle.subject;
const rows = [THROUGHPUT_HEADER];
const overBaseline = [
  'tablelock GraphQL over the baseline API (throughput ratio; p50 latency ratio; CPU per cycle):',
];
const ratios = ['tablelock GraphQL over the bare server (throughput ratio; p50 latency ratio):'];
const cpu = ["each server's CPU ms per acquire + release (tablelock; bare; tablelock over bare):"];
try {
  await profiledBoth('lock-path-cycle', async () => {
    for (const clients of LEVELS) {
      console.log(`lock cycle at ${clients} client(s), tablelock and bare in turns…`);
      const measured: Record<string, WindowResult[]> = await runSideBySide(
        subjects,
        clients,
        windows,
      );
      const of = (name: string) => measured[name] ?? [];
      rows.push(throughputRow('tablelock GraphQL', summarizeWindows(of('graphql'))));
      rows.push(throughputRow('bare Express + Apollo', summarizeWindows(of('bare'))));
      const ratio = ratioOf(of('graphql'), of('bare'));
      ratios.push(
        `  ${String(clients).padStart(2)} clients: ${formatSpread(ratio.throughput, percent)}; ` +
          `${formatSpread(ratio.latencyP50, (v) => `${v.toFixed(2)}×`)}`,
      );
      const ours = graphql.takeSpread();
      const theirs = bareCycle.takeSpread();
      if (baselineCycle) {
        rows.push(throughputRow('baseline API', summarizeWindows(of('baseline'))));
        const before = baselineCycle.takeSpread();
        const vsBaseline = ratioOf(of('graphql'), of('baseline'));
        overBaseline.push(
          `  ${String(clients).padStart(2)} clients: ${formatSpread(vsBaseline.throughput, percent)}; ` +
            `${formatSpread(vsBaseline.latencyP50, (v) => `${v.toFixed(2)}×`)}; ` +
            `${percent(ours.median / before.median)} (${before.median.toFixed(2)} ms before)`,
        );
      }
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
  const baselineContention = baseline
    ? await runContention(baseline.url, credentials.racers, CONTENTION.rounds)
    : undefined;
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
      ...(baselineContention
        ? [
            `  on the baseline API: p50 ${baselineContention.roundMs.p50.toFixed(1)} ms / max ${baselineContention.roundMs.max.toFixed(1)} ms, errors ${baselineContention.errors}`,
            '',
            ...overBaseline,
          ]
        : []),
    ].join('\n'),
  );
  await apiRuns.write(resultsDir);
  await bareRuns.write(resultsDir);
} finally {
  apiProfiler?.close();
  bareProfiler?.close();
  await api.stop();
  await bare.stop();
  await baseline?.stop();
  await database.close();
}
