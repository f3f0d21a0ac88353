import { startApiProcess } from './apiProcess';
import { createBenchCredentials } from './benchCredentials';
import { openBenchDatabase } from './benchDatabase';
import { createGraphQLClient } from './graphqlClient';
import { graphqlLockCycle } from './scenarios/graphqlLockCycle';
import { measureWebhookDelivery } from './scenarios/webhookDelivery';

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
  const cycle = (window: typeof result.lockCycle.withoutEndpoints) =>
    `${window.opsPerSecond.toFixed(0)} cycles/s, p50 ${window.latencyMs.p50.toFixed(1)} ms, ` +
    `p99 ${window.latencyMs.p99.toFixed(1)} ms, errors ${window.errors}, refused ${window.refused}`;
  console.log(
    `lock cycle, ${CLIENTS} clients, no webhook:     ${cycle(result.lockCycle.withoutEndpoints)}`,
  );
  console.log(
    `lock cycle, ${CLIENTS} clients, two endpoints:  ${cycle(result.lockCycle.withTwoEndpoints)}`,
  );
  console.log(
    `delivery, commit → receiver: p50 ${result.deliveryLatencyMs.p50} ms, p99 ${result.deliveryLatencyMs.p99} ms, ` +
      `max ${result.deliveryLatencyMs.max} ms; ${result.deliveredPerSecond.toFixed(0)} messages/s ` +
      `delivered while the clients ran (${result.events} events, 2 endpoints)`,
  );
} finally {
  await client.close();
  await api.stop();
  await database.close();
}
