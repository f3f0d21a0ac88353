import { startApiProcess } from './apiProcess';
import { createBenchCredentials } from './benchCredentials';
import { openBenchDatabase } from './benchDatabase';
import { THROUGHPUT_HEADER, throughputRow } from './report';
import { formatRowScopes } from './rowScopeReport';
import { measureRowScopes } from './scenarios/rowScopeCycle';
import { measureRowScopeLine } from './scenarios/rowScopeLine';
import { measureRowScopeWriteCost } from './scenarios/rowScopeWriteCost';
import { windowPlan } from './sideBySide';

/**
 * `pnpm --filter @tablelock/bench bench:row-scopes [--quick]`: acquire + release of row scopes
 * of one table beside whole tables of their own, at 1, 8 and 32 clients; 8 editors and a
 * whole-table waiter in line; writes beside 1,000 live scopes: as `pnpm bench` does.
 */
const quick = process.argv.includes('--quick');
const LEVELS = [1, 8, 32];
const database = await openBenchDatabase(Math.max(...LEVELS));
const credentials = await createBenchCredentials(database.url, Math.max(...LEVELS), 0);
const api = await startApiProcess(database.url, { poolSize: 10 });
try {
  const levels = await measureRowScopes(api.url, credentials.editors, LEVELS, windowPlan(quick));
  const line = await measureRowScopeLine(api.url, credentials.editors, {
    editors: 8,
    seconds: quick ? 3 : 6,
  });
  const cost = await measureRowScopeWriteCost(database.url, {
    liveScopes: 1_000,
    rows: 100,
    rounds: quick ? 2 : 6,
  });
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
      '',
      ...formatRowScopes(line, cost),
    ].join('\n'),
  );
} finally {
  await api.stop();
  await database.close();
}
