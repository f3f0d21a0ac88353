import { startApiProcess } from './apiProcess';
import { createBenchCredentials } from './benchCredentials';
import { openBenchDatabase } from './benchDatabase';
import { createGraphQLClient } from './graphqlClient';
import { graphqlLockCycle } from './scenarios/graphqlLockCycle';
import { measureWebhookDelivery } from './scenarios/webhookDelivery';
import { formatWebhookDelivery } from './webhookReport';

/**
 * `pnpm --filter @tablelock/bench bench:webhooks [--quick]`: the lock cycle at 8 clients without
 * and with two webhook endpoints, and the delivery latency from commit to receiver.
 */
const quick = process.argv.includes('--quick');
const CLIENTS = 8;
const database = await openBenchDatabase(CLIENTS);
const credentials = await createBenchCredentials(database.url, CLIENTS, 0);
const api = await startApiProcess(database.url, {
  poolSize: 10,
  settings: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' },
});
const client = createGraphQLClient(api.url, CLIENTS);
try {
  const result = await measureWebhookDelivery(
    database.url,
    graphqlLockCycle(client, credentials.editors),
    { clients: CLIENTS, windowMs: quick ? 1_000 : 10_000 },
  );
  console.log(formatWebhookDelivery(result).join('\n'));
} finally {
  await client.close();
  await api.stop();
  await database.close();
}
