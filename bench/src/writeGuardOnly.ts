import { openBenchDatabase } from './benchDatabase';
import { measureWriteGuardCost } from './scenarios/writeGuardCost';
import { formatWriteGuardCost } from './writeGuardReport';

/**
 * `pnpm --filter @tablelock/bench bench:guard [--quick]`: the write guard's cost alone (the
 * full bench runs it too), without starting the API.
 */
const quick = process.argv.includes('--quick');
const database = await openBenchDatabase(1);
try {
  const result = await measureWriteGuardCost(
    database.url,
    quick
      ? { importRows: 10_000, saveRows: 1_000, rounds: 1 }
      : { importRows: 100_000, saveRows: 1_000, rounds: 3 },
  );
  console.log(formatWriteGuardCost(result).join('\n'));
} finally {
  await database.close();
}
