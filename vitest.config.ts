import { createRequire } from 'node:module';
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

// Node resolves `graphql` (it has no exports map) to its CommonJS build, for our code and for the
// libraries that use it (Apollo, graphql-ws, graphql-armor). Vite would give our code the ES
// build instead: two copies of graphql's classes, whose schemas and errors fail each other's
// instanceof checks. Tests resolve it as Node does when the app runs.
const graphqlAsNodeResolvesIt = createRequire(
  new URL('apps/api/package.json', import.meta.url),
).resolve('graphql');

const TEST_FILES = '{apps/*,packages/*,conformance}/test/**/*.test.ts';

/**
 * Files whose outcome depends on getting the machine's time when they ask for it: a process
 * stopped or killed within a bound, Postgres stopped under load, many parallel clients racing
 * whose rounds must interleave. Starved by other files, they would measure the other files.
 */
const TIMING_SENSITIVE = [
  'apps/api/test/processLifecycle.test.ts',
  'apps/api/test/embeddedPostgresFaults.test.ts',
  'apps/api/test/databaseOutage.test.ts',
  'apps/api/test/externalOutage.test.ts',
  'apps/api/test/pausedHolder.test.ts',
  'apps/api/test/multiProcess.test.ts',
  'apps/api/test/scheduledChanges.test.ts',
  'apps/api/test/rowScopeRace.test.ts',
  'apps/api/test/pgbouncer.test.ts',
  'apps/api/test/races.test.ts',
  'apps/api/test/lockQueueFairness.test.ts',
  // Compares the durations of two kinds of login.
  'apps/api/test/loginTiming.test.ts',
  // Replaces API processes one at a time under 16 racing clients (the upgrade drill).
  'apps/api/test/rollingUpgrade.test.ts',
];

/**
 * Failover files: each kills, stops or promotes servers and then expects the processes to have
 * heard of it; starved by the parallel run, two of them failed that way. Most of their time is
 * waiting (for a promotion, a reconnect, a sweeper's grace), so they run beside the files above,
 * one at a time each: together the two use about one core of the two.
 */
const FAILOVER = [
  'packages/db/test/primaryOnlyConnections.test.ts',
  'packages/db/test/durableAnswers.test.ts',
  'packages/test-support/test/replicaSet.test.ts',
  'apps/api/test/outcomeUnknown.test.ts',
  'packages/client/test/outcomeUnknownRetry.test.ts',
  'apps/api/test/fencingTokensAcrossPromotion.test.ts',
  'apps/api/test/syncReplicaReadiness.test.ts',
  // With a bound on the clock: back within 10 s, a sweeper's 15 s of grace.
  'apps/api/test/failoverReconnect.test.ts',
  'apps/api/test/reconnectingWaiter.test.ts',
  'apps/api/test/failoverHarness.test.ts',
  'apps/api/test/lostJoin.test.ts',
  // Kills the primary around scheduled requests' times (two API processes applying them).
  'apps/api/test/scheduledChangeFailover.test.ts',
];

/**
 * The client conformance kit: each file starts an API it kills, restarts and cuts off, and a
 * client runner beside it. Beside the parallel files they starved those of CPU (a webhook
 * give-up and a browser dialog missed their bounds); one at a time, beside the timing and
 * failover files, they do not. A run of their own: in the failover run they made it the
 * suite's last by two minutes.
 */
const CONFORMANCE = [
  'conformance/test/typescript.test.ts',
  'conformance/test/python.test.ts',
  'conformance/test/pythonAsyncio.test.ts',
  // Fails the database over under each client of the kit (a replica set per client).
  'conformance/test/failover.test.ts',
];

/**
 * Most files wait on Postgres, the API's processes and sockets rather than on the CPU, and each
 * has a database of its own (createTestDatabase), so more of them run at once than there are cores.
 */
const PARALLEL_WORKERS = 3;

/**
 * A project of this config. Projects do not inherit the root config: its global setups run
 * once for the whole run (one Postgres, one build), and what they provide reaches every project.
 */
const project = (
  name: string,
  files: { include: string[]; exclude?: string[] },
  workers: { maxWorkers: number; groupOrder: number },
): TestProjectInlineConfiguration => ({
  resolve: { alias: [{ find: /^graphql$/, replacement: graphqlAsNodeResolvesIt }] },
  test: {
    name,
    ...files,
    maxWorkers: workers.maxWorkers,
    // A worker keeps the modules it loaded for its next file (the API, Prisma, graphql): loading
    // them again for every file took longer than most files' tests. Files leave no global state.
    isolate: false,
    sequence: { groupOrder: workers.groupOrder },
    // Catches a test that hangs, nothing more: what a test promises about time it asserts
    // itself, a process's start is bounded by its own CPU time (apiProcess.ts), and speed is
    // `pnpm bench`'s. At 60 s, tests that start three API processes failed on a busy 2-core
    // machine while every step of theirs was progressing.
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});

export default defineConfig({
  test: {
    globalSetup: [
      'packages/test-support/src/globalSetup.ts',
      'packages/test-support/src/compiledApi.ts',
      'packages/client/test/support/compiledClient.ts',
    ],
    projects: [
      project(
        'parallel',
        {
          include: [TEST_FILES],
          exclude: [...configDefaults.exclude, ...TIMING_SENSITIVE, ...FAILOVER, ...CONFORMANCE],
        },
        { maxWorkers: PARALLEL_WORKERS, groupOrder: 0 },
      ),
      // After the others, one file at a time. `pnpm test:all` runs these three projects side by
      // side, as three Vitest runs (one run takes projects of different groupOrder one after the
      // other, and of the same one into one pool).
      project('timing', { include: TIMING_SENSITIVE }, { maxWorkers: 1, groupOrder: 1 }),
      project('failover', { include: FAILOVER }, { maxWorkers: 1, groupOrder: 2 }),
      project('conformance', { include: CONFORMANCE }, { maxWorkers: 1, groupOrder: 3 }),
    ],
  },
});
