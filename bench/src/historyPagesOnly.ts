import { startApiProcess } from './apiProcess';
import { createBenchCredentials } from './benchCredentials';
import { openBenchDatabase } from './benchDatabase';
import { historyPageLimitMs, measureHistoryPages } from './scenarios/historyPages';

/**
 * `pnpm --filter @tablelock/bench bench:history [--quick]`: the history pages of `pnpm bench`,
 * alone: 10,000,000 lock events and 10,000,000 row changes of products (half of them in
 * batches), then each page read 20 times (100,000, 10,000 and 5 with `--quick`).
 */
const quick = process.argv.includes('--quick');
const SIZES = quick
  ? { lockEvents: 100_000, rowChanges: 10_000, repetitions: 5 }
  : { lockEvents: 10_000_000, rowChanges: 10_000_000, repetitions: 20 };

const database = await openBenchDatabase(1);
const credentials = await createBenchCredentials(database.url, 1, 0);
const api = await startApiProcess(database.url, { poolSize: 10 });
try {
  const result = await measureHistoryPages(api.url, credentials.viewer, database.url, SIZES);
  console.log(
    `${result.lockEvents.toLocaleString('en-US')} lock events, ${result.rowChanges.toLocaleString('en-US')} row changes (written in ${result.fillSeconds.toFixed(0)} s):`,
  );
  for (const { page, latencyMs } of result.pages) {
    console.log(
      `  ${page.padEnd(40)} p50 ${latencyMs.p50.toFixed(1).padStart(6)} ms  max ${latencyMs.max.toFixed(1).padStart(6)} ms  (target < ${historyPageLimitMs(page)} ms)`,
    );
  }
  if (result.errors > 0) {
    console.log(`  errors: ${result.errors} (first: ${result.firstError})`);
    process.exitCode = 1;
  }
} finally {
  await api.stop();
  await database.close();
}
