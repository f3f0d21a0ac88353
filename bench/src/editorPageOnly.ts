import { startApiProcess } from './apiProcess';
import { openBenchDatabase } from './benchDatabase';
import { formatEditorPage } from './report';
import { measureEditorPage } from './scenarios/editorPage';

/**
 * `pnpm --filter @tablelock/bench bench:page [--quick]`: the table page of 100,000 products in
 * Chromium (first rows, a 1,000-row save with drafts on), as `pnpm bench` measures it.
 */
const quick = process.argv.includes('--quick');
const database = await openBenchDatabase(1);
const api = await startApiProcess(database.url, { poolSize: 10 });
try {
  const page = await measureEditorPage(
    { databaseUrl: database.url, apiUrl: api.url },
    { saveRows: 1_000, repetitions: quick ? 1 : 3 },
  );
  console.log(formatEditorPage(page).join('\n'));
  if (page.errors > 0) process.exitCode = 1;
} finally {
  await api.stop();
  await database.close();
}
