import { startApiProcess } from './apiProcess';
import { createBenchCredentials } from './benchCredentials';
import { openBenchDatabase } from './benchDatabase';
import { measureRowsAsOf } from './scenarios/rowsAsOf';

/**
 * `pnpm --filter @tablelock/bench bench:as-of [--quick]`: the first page of 100,000 products
 * as it will be after 10 scheduled change requests (`rows(asOf:)`), beside rows() today in
 * the same run.
 */
const quick = process.argv.includes('--quick');
const database = await openBenchDatabase(1);
const credentials = await createBenchCredentials(database.url, 1, 0);
const api = await startApiProcess(database.url, { poolSize: 10 });
try {
  const result = await measureRowsAsOf(
    { databaseUrl: database.url, apiUrl: api.url, apiKey: credentials.viewer },
    { requests: 10, repetitions: quick ? 20 : 100 },
  );
  const line = (label: string, { p50, p95 }: { p50: number; p95: number }) =>
    `  ${label.padEnd(42)} p50 ${p50.toFixed(1).padStart(7)} ms   p95 ${p95.toFixed(1).padStart(7)} ms`;
  console.log(
    [
      `first page (100 rows) of 100,000 products, ${result.requests} scheduled requests pending:`,
      line('rows()', result.today),
      line('rows(asOf: after every request)', result.asOf),
      ...(result.errors > 0 ? [`  errors: ${result.errors} (first: ${result.firstError})`] : []),
    ].join('\n'),
  );
  if (result.errors > 0) process.exitCode = 1;
} finally {
  await api.stop();
  await database.close();
}
