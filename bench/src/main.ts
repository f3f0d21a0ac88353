import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { freePort } from '@tablelock/test-support';
import type { Etcd3 } from 'etcd3';
import pg from 'pg';
import type { RedisClientType } from 'redis';
import { startApiProcess, startBareServerProcess } from './apiProcess';
import { connectApiProfiler } from './apiProfiler';
import { createBenchCredentials, createFanOutSubscribers } from './benchCredentials';
import { openBenchDatabase } from './benchDatabase';
import { startEtcdServer } from './etcdServer';
import { createGraphQLClient } from './graphqlClient';
import { judgeTargets } from './judgeTargets';
import { openedPerLevel } from './openedPerLevel';
import { profiledRuns } from './profiledRuns';
import { startRedisServer } from './redisServer';
import { type BenchReport, formatReport, type LockCycleLevel } from './report';
import { advisoryLockCycle } from './scenarios/advisoryLockCycle';
import { measureBigImports } from './scenarios/bigImports';
import { CLIENT_LIBRARY_LEVELS, measureClientLockCycle } from './scenarios/clientLockCycle';
import { runContention } from './scenarios/contention';
import { measureDeepPages } from './scenarios/deepPages';
import { measureEditorPage } from './scenarios/editorPage';
import { etcdLockCycle } from './scenarios/etcdLockCycle';
import { measureExports } from './scenarios/exportProducts';
import { measureFanOut } from './scenarios/fanOut';
import { graphqlLockCycle, graphqlLockCycleSubject } from './scenarios/graphqlLockCycle';
import { historyPageSizes, measureHistoryPages } from './scenarios/historyPages';
import { measureImport } from './scenarios/importProducts';
import { measureManyTables } from './scenarios/manyTables';
import { rawSqlLockCycle } from './scenarios/rawSqlLockCycle';
import { readTables } from './scenarios/readTables';
import { redisLockCycle } from './scenarios/redisLockCycle';
import { measureRoundTrips } from './scenarios/roundTrips';
import { measureRowScopes } from './scenarios/rowScopeCycle';
import { measureRowScopeLine } from './scenarios/rowScopeLine';
import { measureRowScopeWriteCost } from './scenarios/rowScopeWriteCost';
import { measureWebhookDelivery } from './scenarios/webhookDelivery';
import { measureWriteGuardCost } from './scenarios/writeGuardCost';
import { ratioOf, runSideBySide, summarizeWindows, windowPlan } from './sideBySide';

const quick = process.argv.includes('--quick');
/**
 * `--profile`: the API process's V8 CPU profile over the lock cycle and over contention, written
 * next to the results and summed up by step.
 */
const profile = process.argv.includes('--profile');
const CLIENT_LEVELS = [1, 8, 32];
const windows = windowPlan(quick);
const CONTENTION = { clients: 200, rounds: quick ? 5 : 30 };
const ROUND_TRIP_REPETITIONS = quick ? 20 : 200;
// Split over two API processes, as behind a load balancer: each hears the change from Postgres.
const FAN_OUT = { subscribers: quick ? 200 : 10_000, changes: quick ? 4 : 10 };
const DEEP_PAGE_REPETITIONS = quick ? 5 : 20;
// Real schemas have thousands of master tables; the smoke run checks the path with fewer.
const MANY_TABLES = quick ? 1_000 : 10_000;
const MANY_TABLES_REPETITIONS = quick ? 2 : 5;
const EXPORTS_PER_FORMAT = quick ? 1 : 3;
// Issue 42's page timing: first rows of 100,000 products, and a 1,000-row save from a draft.
const EDITOR_PAGE = { saveRows: 1_000, repetitions: quick ? 1 : 3 };
// The smoke run imports a tenth of the products, to stay within a minute.
const IMPORT_ROWS = quick ? 10_000 : 100_000;
// Large imports: a timed dry run, then a million rows as CSV and XLSX (the smoke run: a few).
const BIG_IMPORTS = quick
  ? { smallRows: 1_000, largeRows: 5_000 }
  : { smallRows: 100_000, largeRows: 1_000_000 };
// Issue 41's measures: 8 editors on disjoint scopes and a whole-table waiter; writes under a
// row scope with 1,000 other scopes live on its table.
const ROW_SCOPE_LINE = { editors: 8, seconds: quick ? 3 : 6 };
const ROW_SCOPE_WRITE_SIZES = { liveScopes: 1_000, rows: 100, rounds: quick ? 2 : 6 };
const WRITE_GUARD_SIZES = quick
  ? { importRows: 10_000, saveRows: 1_000, rounds: 1 }
  : { importRows: 100_000, saveRows: 1_000, rounds: 3 };
// The webhook scenario's lock cycle runs at the middle client level, without and with endpoints.
const WEBHOOK_CLIENTS = 8;
const API_POOL_SIZE = 10;
const resultsDir = new URL('../results', import.meta.url).pathname;
const resultsPath = `${resultsDir}/latest.json`;

const startedAt = new Date().toISOString();
const machine = { cpus: availableParallelism(), loadAverage1m: loadavg()[0] ?? 0 };
console.log(`tablelock bench${quick ? ' --quick' : ''}: preparing a database…`);
const database = await openBenchDatabase(Math.max(...CLIENT_LEVELS));
const credentials = await createBenchCredentials(
  database.url,
  Math.max(...CLIENT_LEVELS),
  CONTENTION.clients,
);
const redis = await startRedisServer();
const etcd = await startEtcdServer();
const inspectPort = profile ? await freePort() : undefined;
const api = await startApiProcess(database.url, {
  poolSize: API_POOL_SIZE,
  settings: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' },
  ...(inspectPort ? { inspectPort } : {}),
});
// The ceiling: the API's parts without the API (bareServer.ts), on a pool of the same size.
const bare = await startBareServerProcess(database.url, API_POOL_SIZE);
const profiler = inspectPort ? await connectApiProfiler(inspectPort) : undefined;
const { profiled, write: writeProfiles } = profiledRuns(profiler);

const pgPool = (clients: number) =>
  Promise.resolve(new pg.Pool({ connectionString: database.url, max: clients }));
const graphqlClient = (clients: number) => Promise.resolve(createGraphQLClient(api.url, clients));
const lockSubjects = {
  rawSql: openedPerLevel(pgPool, rawSqlLockCycle, (pool) => pool.end()),
  graphql: graphqlLockCycleSubject(api.url, credentials.editors),
  bare: graphqlLockCycleSubject(bare.url, credentials.editors),
  advisoryLock: openedPerLevel(pgPool, advisoryLockCycle, (pool) => pool.end()),
  ...('skipped' in redis
    ? {}
    : {
        redis: openedPerLevel(
          (clients) => Promise.all(Array.from({ length: clients }, () => redis.connect())),
          redisLockCycle,
          async (connections: RedisClientType[]) => {
            for (const connection of connections) connection.destroy();
          },
        ),
      }),
  ...('skipped' in etcd
    ? {}
    : {
        etcd: openedPerLevel(
          (clients) => Promise.all(Array.from({ length: clients }, () => etcd.connect())),
          etcdLockCycle,
          async (clients: Etcd3[]) => {
            for (const client of clients) client.close();
          },
        ),
      }),
};

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
  const lockCycle: LockCycleLevel[] = [];
  await profiled('lock-cycle', async () => {
    for (const clients of CLIENT_LEVELS) {
      console.log(`lock cycle at ${clients} client(s), subjects in turns…`);
      const measured = await runSideBySide<string>(lockSubjects, clients, windows);
      const of = (name: string) => measured[name] ?? [];
      lockCycle.push({
        clients,
        rawSql: summarizeWindows(of('rawSql')),
        graphql: summarizeWindows(of('graphql')),
        bare: summarizeWindows(of('bare')),
        advisoryLock: summarizeWindows(of('advisoryLock')),
        redis: measured.redis ? summarizeWindows(measured.redis) : null,
        etcd: measured.etcd ? summarizeWindows(measured.etcd) : null,
        bareVs: { rawSql: ratioOf(of('bare'), of('rawSql')) },
        graphqlVs: {
          rawSql: ratioOf(of('graphql'), of('rawSql')),
          bare: ratioOf(of('graphql'), of('bare')),
          advisoryLock: ratioOf(of('graphql'), of('advisoryLock')),
          redis: measured.redis ? ratioOf(of('graphql'), measured.redis) : null,
          etcd: measured.etcd ? ratioOf(of('graphql'), measured.etcd) : null,
        },
      });
    }
  });
  console.log("the clients' lock cycle, TypeScript and Python in turns…");
  const clientLockCycle = await measureClientLockCycle(
    api.url,
    credentials.editors,
    CLIENT_LIBRARY_LEVELS,
    windows,
  );
  console.log('row scopes of one table beside whole tables, in turns…');
  const rowScopes = await measureRowScopes(api.url, credentials.editors, CLIENT_LEVELS, windows);
  console.log('row scopes in line: 8 editors and a whole-table waiter…');
  const rowScopeLine = await measureRowScopeLine(api.url, credentials.editors, ROW_SCOPE_LINE);
  console.log('round trips…');
  const roundTrips = await measureRoundTrips(
    api.url,
    {
      editors: credentials.editors,
      holder: credentials.racers[0] ?? '',
      challenger: credentials.racers[1] ?? '',
    },
    ROUND_TRIP_REPETITIONS,
  );
  console.log('reads…');
  const reads = [];
  for (const clients of CLIENT_LEVELS) {
    const reading = {
      tables: openedPerLevel(
        graphqlClient,
        (client) => readTables(client, credentials.viewer),
        (client) => client.close(),
      ),
    };
    reads.push(summarizeWindows((await runSideBySide(reading, clients, windows)).tables));
  }
  console.log('contention…');
  const contention = await profiled('contention', () =>
    runContention(api.url, credentials.racers, CONTENTION.rounds),
  );
  console.log('contention on the bare server…');
  const bareContention = await runContention(bare.url, credentials.racers, CONTENTION.rounds);
  console.log(`fan-out to ${FAN_OUT.subscribers} subscriptions over two API processes…`);
  const secondApi = await startApiProcess(database.url, { poolSize: API_POOL_SIZE });
  const fanOut = await measureFanOut(
    api.url,
    [api.url, secondApi.url],
    database.url,
    credentials.editors[0] ?? '',
    await createFanOutSubscribers(database.url, api.url, FAN_OUT.subscribers),
    FAN_OUT.changes,
    !quick,
  ).finally(() => secondApi.stop());
  console.log('the table page in a browser: first rows, a 1,000-row save with drafts on…');
  const editorPage = await measureEditorPage(
    { databaseUrl: database.url, apiUrl: api.url },
    EDITOR_PAGE,
  );
  // Last: the thousands of tables it adds would weigh on every scenario after it.
  console.log(`${MANY_TABLES.toLocaleString('en-US')} more master tables…`);
  const manyTablesClient = createGraphQLClient(api.url, 1);
  const manyTables = await measureManyTables(
    {
      databaseUrl: database.url,
      apiUrl: api.url,
      api: manyTablesClient,
      apiKey: credentials.viewer,
    },
    MANY_TABLES,
    MANY_TABLES_REPETITIONS,
  ).finally(() => manyTablesClient.close());
  // After the thousands of tables: an import of 100,000 rows leaves the API's memory high.
  console.log('import…');
  const imports = await measureImport(
    api.url,
    credentials.editors[0] as string,
    api.pid,
    IMPORT_ROWS,
  );
  console.log('large imports…');
  const bigImports = await measureBigImports(
    api.url,
    database.url,
    credentials.editors[0] as string,
    api.pid,
    BIG_IMPORTS,
  );
  console.log('write guard…');
  const writeGuard = await measureWriteGuardCost(database.url, WRITE_GUARD_SIZES);
  console.log('writes under a row scope beside 1,000 live scopes…');
  const rowScopeWriteCost = await measureRowScopeWriteCost(database.url, ROW_SCOPE_WRITE_SIZES);
  console.log('webhooks…');
  const webhookClient = createGraphQLClient(api.url, WEBHOOK_CLIENTS);
  const webhooks = await measureWebhookDelivery(
    database.url,
    graphqlLockCycle(webhookClient, credentials.editors),
    { clients: WEBHOOK_CLIENTS, windowMs: windows.windowMs },
  ).finally(() => webhookClient.close());
  // Last, so that no other scenario runs beside ten million lock events.
  console.log('history pages…');
  const historyPages = await measureHistoryPages(
    api.url,
    credentials.viewer,
    database.url,
    historyPageSizes(quick),
  );
  const partial = {
    format: 2 as const,
    startedAt,
    mode: quick ? ('quick' as const) : ('full' as const),
    database: database.server,
    machine,
    windows,
    peers: {
      redis: { skipped: 'skipped' in redis ? redis.skipped : null },
      etcd: { skipped: 'skipped' in etcd ? etcd.skipped : null },
    },
    lockCycle,
    clientLockCycle,
    rowScopes,
    rowScopeLine,
    rowScopeWriteCost,
    roundTrips,
    reads,
    contention,
    bareContention,
    fanOut,
    deepPages,
    exports,
    editorPage,
    manyTables,
    imports,
    bigImports,
    writeGuard,
    webhooks,
    historyPages,
  };
  report = { ...partial, targets: judgeTargets(partial) };
} finally {
  profiler?.close();
  await api.stop();
  await bare.stop();
  if (!('skipped' in redis)) await redis.stop();
  if (!('skipped' in etcd)) await etcd.stop();
  await database.close();
}

console.log(`\n${formatReport(report)}\n`);
await mkdir(resultsDir, { recursive: true });
await writeFile(resultsPath, `${JSON.stringify(report, null, 2)}\n`);
console.log(`figures written to ${resultsPath}`);
await writeProfiles(resultsDir);
if (!quick) console.log('`pnpm bench:readme` puts them into README.md');

// Correctness always fails the run; speed targets are reported, not enforced.
const correctnessMet = report.targets.filter((target) => target.name.startsWith('correctness'));
process.exit(correctnessMet.every((target) => target.met) ? 0 : 1);
