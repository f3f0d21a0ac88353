import type { WebhookDeliveryResult } from './scenarios/webhookDelivery';

/** The lock cycle without and with two webhook endpoints, and delivery, as report lines. */
export function formatWebhookDelivery(result: WebhookDeliveryResult): string[] {
  const cycle = (window: WebhookDeliveryResult['lockCycle']['withoutEndpoints']) =>
    `${window.opsPerSecond.toFixed(0)} cycles/s, p50 ${window.latencyMs.p50.toFixed(1)} ms, ` +
    `p99 ${window.latencyMs.p99.toFixed(1)} ms, errors ${window.errors}, refused ${window.refused}`;
  return [
    `webhooks (${result.lockCycle.withTwoEndpoints.clients} clients doing lock cycles):`,
    `  no webhook:     ${cycle(result.lockCycle.withoutEndpoints)}`,
    `  two endpoints:  ${cycle(result.lockCycle.withTwoEndpoints)}`,
    `  delivery, commit → receiver: p50 ${result.deliveryLatencyMs.p50.toFixed(0)} ms, ` +
      `p99 ${result.deliveryLatencyMs.p99.toFixed(0)} ms, max ${result.deliveryLatencyMs.max.toFixed(0)} ms; ` +
      `${result.deliveredPerSecond.toFixed(0)} messages/s delivered while the clients ran ` +
      `(${result.events} events, 2 endpoints, ${result.missed} not delivered within 60 s)`,
  ];
}
