import { mkdir, writeFile } from 'node:fs/promises';
import pg from 'pg';
import { startApiProcess } from './apiProcess';
import { createBenchCredentials } from './benchCredentials';
import { openBenchDatabase } from './benchDatabase';
import { createGraphQLClient } from './graphqlClient';
import { type BenchReport, formatReport } from './report';
import { type LoadPlan, type LoadResult, runClosedLoop } from './runClosedLoop';
import { runContention } from './scenarios/contention';
import { measureDeepPages } from './scenarios/deepPages';
import { measureExports } from './scenarios/exportProducts';
import { graphqlLockCycle } from './scenarios/graphqlLockCycle';
import { measureImport } from './scenarios/importProducts';
import { rawSqlLockCycle } from './scenarios/rawSqlLockCycle';
import { readTables } from './scenarios/readTables';

const quick = process.argv.includes('--quick');
/** `--profile` writes a V8 CPU profile of the API process next to the results. */
const profile = process.argv.includes('--profile');
const CLIENT_LEVELS = [1, 8, 32];
const timing = quick
  ? { warmupMs: 300, durationMs: 1_000 }
  : { warmupMs: 1_000, durationMs: 5_000 };
const CONTENTION = { clients: 200, rounds: quick ? 5 : 30 };
const DEEP_PAGE_REPETITIONS = quick ? 5 : 20;
const EXPORTS_PER_FORMAT = quick ? 1 : 3;
const API_POOL_SIZE = 10;
const resultsDir = new URL('../results', import.meta.url).pathname;
const resultsPath = `${resultsDir}/latest.json`;

const plan = (clients: number): LoadPlan => ({ clients, ...timing });

async function runLevels(run: (clients: number) => Promise<LoadResult>): Promise<LoadResult[]> {
  const results: LoadResult[] = [];
  for (const clients of CLIENT_LEVELS) results.push(await run(clients));
  return results;
}

const startedAt = new Date().toISOString();
console.log(`tablelock bench${quick ? ' --quick' : ''}: preparing a database…`);
const database = await openBenchDatabase(Math.max(...CLIENT_LEVELS));
const credentials = await createBenchCredentials(
  database.url,
  Math.max(...CLIENT_LEVELS),
  CONTENTION.clients,
);
const api = await startApiProcess(database.url, {
  poolSize: API_POOL_SIZE,
  ...(profile ? { cpuProfileDir: resultsDir } : {}),
});
let report: BenchReport;
try {
  // First, while the API's peak memory is still that of its start: what an export adds shows.
  console.log('exports…');
  const exports = await measureExports(api.url, credentials.viewer, api.pid, EXPORTS_PER_FORMAT);
  console.log('deep pages…');
  const deepPages = await measureDeepPages(
    api.url,
    credentials.viewer,
    database.url,
    DEEP_PAGE_REPETITIONS,
  );
  console.log('raw SQL floor…');
  const rawSql = await runLevels(async (clients) => {
    const pool = new pg.Pool({ connectionString: database.url, max: clients });
    try {
      return await runClosedLoop(plan(clients), rawSqlLockCycle(pool));
    } finally {
      await pool.end();
    }
  });
  console.log('GraphQL lock path…');
  const graphqlResults = await runLevels(async (clients) => {
    const client = createGraphQLClient(api.url, clients);
    try {
      return await runClosedLoop(plan(clients), graphqlLockCycle(client, credentials.editors));
    } finally {
      await client.close();
    }
  });
  const graphql = graphqlResults.map((result, i) => ({
    ...result,
    ratioToRawSql: result.opsPerSecond / (rawSql[i]?.opsPerSecond || Number.NaN),
  }));
  console.log('reads…');
  const reads = await runLevels(async (clients) => {
    const client = createGraphQLClient(api.url, clients);
    try {
      return await runClosedLoop(plan(clients), readTables(client, credentials.viewer));
    } finally {
      await client.close();
    }
  });
  console.log('contention…');
  const contention = await runContention(api.url, credentials.racers, CONTENTION.rounds);
  console.log('import…');
  const imports = await measureImport(api.url, credentials.editors[0] as string, api.pid);

  const allLoad = [...rawSql, ...graphql, ...reads];
  const errorCount =
    allLoad.reduce((sum, r) => sum + r.errors, 0) +
    contention.errors +
    deepPages.errors +
    exports.errors +
    imports.errors;
  report = {
    startedAt,
    mode: quick ? 'quick' : 'full',
    database: database.server,
    rawSql,
    graphql,
    reads,
    contention,
    deepPages,
    exports,
    imports,
    targets: [
      ...graphql
        .filter((result) => result.clients >= 8)
        .map((result) => ({
          name: `GraphQL ≥ 50% of raw SQL at ${result.clients} clients`,
          met: result.ratioToRawSql >= 0.5,
          detail: `${(result.ratioToRawSql * 100).toFixed(0)}%`,
        })),
      {
        name: 'contention: exactly one winner per round',
        met: contention.winnersPerRound.every((winners) => winners === 1),
        detail: `winners ${contention.winnersPerRound.join(',')}`,
      },
      {
        name: 'contention: every round answered within 200 ms',
        met: contention.roundMs.max <= 200,
        detail: `max ${contention.roundMs.max.toFixed(1)} ms`,
      },
      { name: 'zero errors', met: errorCount === 0, detail: `${errorCount} errors` },
    ],
  };
} finally {
  await api.stop();
  await database.close();
}

console.log(`\n${formatReport(report)}\n`);
await mkdir(resultsDir, { recursive: true });
await writeFile(resultsPath, `${JSON.stringify(report, null, 2)}\n`);
console.log(`figures written to ${resultsPath}`);

// Correctness always fails the run; speed targets are reported, not enforced.
const correct = report.targets.filter(
  (target) => target.name.startsWith('contention: exactly') || target.name === 'zero errors',
);
process.exit(correct.every((target) => target.met) ? 0 : 1);
