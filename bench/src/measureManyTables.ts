import { startApiProcess } from './apiProcess';
import { createBenchCredentials } from './benchCredentials';
import { openBenchDatabase } from './benchDatabase';
import { createGraphQLClient } from './graphqlClient';
import { measureManyTables } from './scenarios/manyTables';

const count = Number(process.argv[2] ?? 10_000);
const database = await openBenchDatabase(1);
const credentials = await createBenchCredentials(database.url, 1, 0);
const api = await startApiProcess(database.url, { poolSize: 10 });
const client = createGraphQLClient(api.url, 1);
try {
  console.log(
    JSON.stringify(
      await measureManyTables(
        { databaseUrl: database.url, apiUrl: api.url, api: client, apiKey: credentials.viewer },
        count,
        5,
      ),
      null,
      2,
    ),
  );
} finally {
  await client.close();
  await api.stop();
  await database.close();
}
