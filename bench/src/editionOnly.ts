import { startApiProcess } from './apiProcess';
import { openBenchDatabase } from './benchDatabase';
import { measureEdition } from './scenarios/edition';

/**
 * `pnpm --filter @tablelock/bench bench:edition` (or `pnpm bench:edition`): issue 44's Measure,
 * an edition of 100,000 changed rows over three tables applied at its time by the API's
 * scheduler. Targets: starts within 1 s of its time, applied within 10 s, the API's RSS at most
 * 200 MB above what it was at that time.
 */
const database = await openBenchDatabase(1);
const api = await startApiProcess(database.url, { poolSize: 10 });
try {
  const result = await measureEdition(database.url, api.pid);
  const verdict = (ok: boolean) => (ok ? 'ok' : 'MISSED');
  console.log(
    [
      `edition of ${result.rows.toLocaleString('en')} changed rows over 3 tables: ${result.state}`,
      `  started ${result.startSeconds.toFixed(2)} s after its time (target 1 s: ${verdict(result.startSeconds <= 1)})`,
      `  applied ${result.appliedSeconds.toFixed(2)} s after its time (target 10 s: ${verdict(result.appliedSeconds <= 10)})`,
      `  API RSS ${result.apiRssAtTimeMb.toFixed(0)} MB at its time, peak +${result.apiRssPeakAboveMb.toFixed(0)} MB (target +200 MB: ${verdict(result.apiRssPeakAboveMb <= 200)})`,
      ...(result.failure ? [`  failure: ${JSON.stringify(result.failure).slice(0, 500)}`] : []),
    ].join('\n'),
  );
  if (result.state !== 'applied') process.exitCode = 1;
} finally {
  await api.stop();
  await database.close();
}
