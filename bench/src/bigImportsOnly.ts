import { startApiProcess } from './apiProcess';
import { createBenchCredentials } from './benchCredentials';
import { openBenchDatabase } from './benchDatabase';
import { measureBigImports } from './scenarios/bigImports';

/**
 * `pnpm --filter @tablelock/bench bench:imports [--quick]`: the large-import scenario alone
 * (the full bench runs it too), for tuning imports without the rest.
 */
const quick = process.argv.includes('--quick');
const database = await openBenchDatabase(1);
const credentials = await createBenchCredentials(database.url, 1, 2);
const api = await startApiProcess(database.url, { poolSize: 10 });
try {
  const result = await measureBigImports(
    api.url,
    database.url,
    credentials.editors[0] as string,
    api.pid,
    quick ? { smallRows: 1_000, largeRows: 10_000 } : { smallRows: 100_000, largeRows: 1_000_000 },
  );
  console.log(`API idle RSS ${result.apiIdleRssMb.toFixed(0)} MB`);
  for (const step of result.steps) {
    console.log(
      `${step.name}: ${step.seconds.toFixed(2)} s, ${step.megabytes.toFixed(1)} MB file, RSS +${step.apiRssAboveIdleMb.toFixed(0)} MB, /healthz max ${step.healthzMaxMs.toFixed(0)} ms${step.error ? `, ERROR ${step.error}` : ''}`,
    );
  }
} finally {
  await api.stop();
  await database.close();
}
