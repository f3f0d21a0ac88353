import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { findChromium, NO_BROWSER } from './support/findChromium';
import type { WorkerFixtures } from './support/fixtures';
import { SHORT_CLOCK_SETTINGS, SHORT_CLOCK_SPECS } from './support/shortClocks';

const executablePath = findChromium();
if (!executablePath) {
  console.error(NO_BROWSER);
  process.exit(1);
}

// The system's Chromium (never a browser downloaded by the tests) and the real app, built once by
// the global setup and started by each worker on a throwaway embedded Postgres of its own
// (support/fixtures.ts). Two workers on a 2-core machine: most of a browser test is waiting.
export default defineConfig<object, Pick<WorkerFixtures, 'appSettings'>>({
  testDir: 'tests',
  outputDir: 'test-results',
  globalSetup: './support/globalSetup.ts',
  workers: 2,
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // Catches a test that hangs: each step has its own bound (expect's below). Scenarios with three
  // browsers and a dozen accessibility scans took 47-57 s of a 60 s budget beside the Vitest run.
  timeout: 120_000,
  // Live updates show a change made in another browser within a second. Without them the pages
  // poll only every 30 s, so these timeouts also catch live updates that silently stopped.
  expect: { timeout: 12_000 },
  // The JSON report is what `pnpm test:all` (scripts/test-all.mjs) reads to name failed tests.
  reporter: [
    ['list'],
    [
      'json',
      { outputFile: fileURLToPath(new URL('../test-results/playwright.json', import.meta.url)) },
    ],
  ],
  // thousands-of-tables.spec.ts runs an app of its own, slow to start (10,000 more tables): as
  // a project listed first it starts beside the other tests instead of alone after them. The
  // specs that wait out a lease, an idle limit or a renewal run next, on an app with short clocks,
  // while the other worker works through the rest.
  projects: [
    { name: 'many-tables', testMatch: 'thousands-of-tables.spec.ts' },
    {
      name: 'short-clocks',
      testMatch: SHORT_CLOCK_SPECS,
      use: { appSettings: SHORT_CLOCK_SETTINGS },
    },
    { name: 'app', testIgnore: ['thousands-of-tables.spec.ts', ...SHORT_CLOCK_SPECS] },
  ],
  use: {
    launchOptions: {
      executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
    screenshot: 'only-on-failure',
    // A failed test keeps its trace: every action with its timing, the network, the console and
    // the source. Without the screencast and the DOM snapshots, which every test recorded, passed
    // ones too: the screencast took 21 s of Chromium's CPU on two specs (edit-save-reload,
    // four-eyes-change-request), and the snapshots 13% of the browser tests' CPU (Playwright alone:
    // 362 CPU-s and 210 s with them, 316 CPU-s and 187 s without). The failure's own screenshot
    // shows the page; to see the DOM at each step, run the failed spec again with `--trace on`.
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: false },
  },
});
