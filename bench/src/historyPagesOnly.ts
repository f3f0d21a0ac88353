import { startApiProcess } from './apiProcess';
import { createBenchCredentials } from './benchCredentials';
import { openBenchDatabase } from './benchDatabase';
import { formatHistoryPages } from './historyPagesReport';
import { historyPageSizes, measureHistoryPages } from './scenarios/historyPages';

/**
 * `pnpm --filter @tablelock/bench bench:history [--quick]`: the history pages of `pnpm bench`,
 * alone: 10,000,000 lock events and 10,000,000 row changes of products (half of them in
 * batches), then each page read 20 times (100,000, 10,000 and 5 with `--quick`).
 */
const quick = process.argv.includes('--quick');

const database = await openBenchDatabase(1);
const credentials = await createBenchCredentials(database.url, 1, 0);
const api = await startApiProcess(database.url, { poolSize: 10 });
try {
  const result = await measureHistoryPages(
    api.url,
    credentials.viewer,
    database.url,
    historyPageSizes(quick),
  );
  console.log(formatHistoryPages(result).join('\n'));
  if (result.errors > 0) {
    console.log(`  errors: ${result.errors} (first: ${result.firstError})`);
    process.exitCode = 1;
  }
} finally {
  await api.stop();
  await database.close();
}
