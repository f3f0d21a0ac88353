import { startApiProcess } from './apiProcess';
import { createBenchCredentials } from './benchCredentials';
import { openBenchDatabase } from './benchDatabase';
import { formatPythonOverTypescript, THROUGHPUT_HEADER, throughputRow } from './report';
import { CLIENT_LIBRARY_LEVELS, measureClientLockCycle } from './scenarios/clientLockCycle';
import { windowPlan } from './sideBySide';

/**
 * `pnpm --filter @tablelock/bench bench:clients [--quick]`: the lock cycle through the
 * TypeScript and the Python client, side by side, as `pnpm bench` measures it, alone.
 */
const quick = process.argv.includes('--quick');
const windows = windowPlan(quick);
const clients = Math.max(...CLIENT_LIBRARY_LEVELS);
const database = await openBenchDatabase(clients);
const credentials = await createBenchCredentials(database.url, clients, 0);
const api = await startApiProcess(database.url, { poolSize: 10 });
try {
  const levels = await measureClientLockCycle(
    api.url,
    credentials.editors,
    CLIENT_LIBRARY_LEVELS,
    windows,
  );
  console.log(
    [
      THROUGHPUT_HEADER,
      ...levels.flatMap((level) => [
        throughputRow('client: TypeScript', level.typescript),
        throughputRow('client: Python', level.python),
      ]),
      '',
      ...formatPythonOverTypescript(levels),
    ].join('\n'),
  );
} finally {
  await api.stop();
  await database.close();
}
