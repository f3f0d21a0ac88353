import { startApiProcess } from './apiProcess';
import { createBenchCredentials } from './benchCredentials';
import { openBenchDatabase } from './benchDatabase';
import { THROUGHPUT_HEADER, throughputRow } from './report';
import { measureRowScopes } from './scenarios/rowScopeCycle';
import { windowPlan } from './sideBySide';

/**
 * `pnpm --filter @tablelock/bench bench:row-scopes [--quick]`: acquire + release of row scopes
 * of one table beside whole tables of their own, at 1, 8 and 32 clients, as `pnpm bench` does.
 */
const quick = process.argv.includes('--quick');
const LEVELS = [1, 8, 32];
const database = await openBenchDatabase(Math.max(...LEVELS));
const credentials = await createBenchCredentials(database.url, Math.max(...LEVELS), 0);
const api = await startApiProcess(database.url, { poolSize: 10 });
try {
  const levels = await measureRowScopes(api.url, credentials.editors, LEVELS, windowPlan(quick));
  console.log(
    [
      THROUGHPUT_HEADER,
      ...levels.flatMap((level) => [
        throughputRow('whole table (own)', level.wholeTable),
        throughputRow('row scope (one table)', level.rowScope),
      ]),
      '',
      'row scopes of one table over whole tables (throughput ratio):',
      ...levels.map(
        (level) =>
          `  ${String(level.clients).padStart(2)} clients: ${(level.rowScopeVs.wholeTable.throughput.median * 100).toFixed(0)}%`,
      ),
    ].join('\n'),
  );
} finally {
  await api.stop();
  await database.close();
}
