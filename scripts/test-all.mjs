// `pnpm test:all`, what `npm test` runs once the workspace is built: the type check and lint, the
// `parallel` Vitest files, the browser tests and the Python client's unit tests side by side; then the `timing`, `failover`
// and `conformance` files side by side, on a machine the first phase no longer uses. Every run goes to its end
// whatever the others do, so each prints its own summary: `pnpm run` with a regex stopped the
// other runs at the first failure, and a newcomer saw a red suite with no reason. The second
// phase runs after a failed first one too: its files start databases and servers of their own,
// so their outcome does not depend on the first phase's, and one run tells everything that fails.
// The end lists each failed test by its file, from the runners' own JSON reports (REPORTS), and
// the exit status is non-zero when any run failed.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Where the runners write their reports (the scripts' Vitest options, playwright.config.ts). */
const REPORTS = join(root, 'test-results');

const PHASES = [
  [
    { script: 'test:static' },
    { script: 'test:parallel', vitest: 'vitest-parallel.json' },
    { script: 'test:browser', playwright: 'playwright.json' },
    { script: 'test:python' },
  ],
  [
    { script: 'test:timing', vitest: 'vitest-timing.json' },
    { script: 'test:failover', vitest: 'vitest-failover.json' },
    { script: 'test:conformance', vitest: 'vitest-conformance.json' },
  ],
];

// The pnpm that runs this script (perhaps fetched by npx, not on the PATH).
const pnpm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['pnpm'];

/** Runs a root script, its lines prefixed with its name; resolves to its exit code. */
function run(script) {
  const [command, ...args] = [...pnpm, 'run', script];
  const child = spawn(command, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      TABLELOCK_TESTS_USE_BUILD: '1',
      // The runners write to a pipe here; on a terminal they still colour their output.
      ...(process.stdout.isTTY && !process.env.NO_COLOR ? { FORCE_COLOR: '1' } : {}),
    },
  });
  for (const [from, to] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ]) {
    createInterface({ input: from }).on('line', (line) => to.write(`${script}: ${line}\n`));
  }
  return new Promise((done) => child.on('close', (code) => done(code ?? 1)));
}

const nameOf = (titles) => titles.filter(Boolean).join(' › ');

/** Vitest's JSON report: a file that failed to run has no tests, only its message. */
function vitestFailures(report) {
  return report.testResults.flatMap((file) => {
    const path = relative(root, file.name);
    const failed = file.assertionResults.filter((test) => test.status === 'failed');
    if (file.status === 'failed' && failed.length === 0) {
      return [`${path} › ${file.message.split('\n')[0] || 'the file failed to run'}`];
    }
    return failed.map((test) => `${path} › ${nameOf([...test.ancestorTitles, test.title])}`);
  });
}

/** Playwright's JSON report: suites of specs, a spec's tests one per project and repeat. */
function playwrightFailures(report) {
  const inSuite = (suite, titles) => [
    ...(suite.specs ?? []).flatMap((spec) =>
      spec.tests
        .filter((test) => test.status === 'unexpected')
        .map(
          () =>
            `${relative(root, join(report.config.rootDir, spec.file))} › ${nameOf([...titles, spec.title])}`,
        ),
    ),
    ...(suite.suites ?? []).flatMap((inner) => inSuite(inner, [...titles, inner.title])),
  ];
  // A file's suite is titled with its path, said already.
  const tests = report.suites.flatMap((file) => inSuite(file, []));
  // The run's own errors: its global setup failed, a file did not load.
  const errors = report.errors.map(
    (error) =>
      `${error.location ? relative(root, error.location.file) : 'e2e'} › ${error.message.split('\n')[0]}`,
  );
  return [...tests, ...errors];
}

/** The failed tests a run's report lists, or null without a report. */
function failuresOf(runner) {
  const file = runner.vitest ?? runner.playwright;
  if (!file || !existsSync(join(REPORTS, file))) return null;
  const report = JSON.parse(readFileSync(join(REPORTS, file), 'utf8'));
  return runner.vitest ? vitestFailures(report) : playwrightFailures(report);
}

// A Ctrl+C reaches every run (one process group): each stops its servers and prints its end,
// and this waits for them rather than leave them writing into a closed pipe. No next phase.
let interrupted = false;
process.on('SIGINT', () => {
  interrupted = true;
});

rmSync(REPORTS, { recursive: true, force: true });
const outcomes = [];
for (const phase of PHASES) {
  if (interrupted) break;
  outcomes.push(
    ...(await Promise.all(
      phase.map(async (runner) => {
        const started = Date.now();
        const code = await run(runner.script);
        return { runner, code, seconds: Math.round((Date.now() - started) / 1000) };
      }),
    )),
  );
}

const lines = ['', 'Runs:'];
for (const { runner, code, seconds } of outcomes) {
  const outcome = code === 0 ? 'passed' : interrupted ? 'stopped' : 'FAILED';
  lines.push(`  ${runner.script.padEnd(14)} ${outcome} in ${seconds} s`);
}
// Stopped runs failed nothing: their tests did not get to their end.
const failed = interrupted ? [] : outcomes.filter(({ code }) => code !== 0);
for (const { runner, code } of failed) {
  // Unique: a test repeated (--repeat-each) or in several projects fails once here.
  const tests = [...new Set(failuresOf(runner) ?? [])];
  for (const test of tests) lines.push(`FAILED ${test}`);
  // A type error, a lint finding, a run that ended before its report: its output above says.
  if (tests.length === 0) {
    lines.push(`FAILED ${runner.script} (exit code ${code}; its output above says why)`);
  }
}
console.log(lines.join('\n'));
process.exitCode = interrupted ? 130 : failed.length === 0 ? 0 : 1;
