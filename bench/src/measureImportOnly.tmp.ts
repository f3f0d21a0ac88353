import { startApiProcess } from './apiProcess';
import { createBenchCredentials } from './benchCredentials';
import { openBenchDatabase } from './benchDatabase';
import { measureImport } from './scenarios/importProducts';

const database = await openBenchDatabase(1);
const credentials = await createBenchCredentials(database.url, 1, 1);
const api = await startApiProcess(database.url, { poolSize: 10 });
try {
  console.log(
    JSON.stringify(await measureImport(api.url, credentials.editors[0] as string, api.pid)),
  );
} finally {
  await api.stop();
  await database.close();
}
