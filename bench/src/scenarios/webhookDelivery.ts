import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPrismaClient } from '@tablelock/db';
import { createWebhook } from '@tablelock/outbox';
import { type LatencySummary, summarizeLatencies } from '../latency';
import { type Operation, runClosedLoop, type WindowResult } from '../runClosedLoop';

export interface WebhookDeliveryResult {
  /** The lock cycle with no endpoint registered, then with two. */
  lockCycle: { withoutEndpoints: WindowResult; withTwoEndpoints: WindowResult };
  /** From the event's transaction to its arrival at a receiver, over both endpoints. */
  deliveryLatencyMs: LatencySummary;
  /** Messages that arrived per second, both endpoints together, while the clients ran. */
  deliveredPerSecond: number;
  events: number;
  /** Messages (events × endpoints) that had not arrived 60 s after the clients stopped. */
  missed: number;
}

/** Two HTTP receivers on 127.0.0.1 that note when each message arrives. */
async function startReceivers(count: number) {
  const arrivals: { at: number; eventAt: number }[] = [];
  const servers = await Promise.all(
    Array.from({ length: count }, async () => {
      const server = http.createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          const { timestamp } = JSON.parse(Buffer.concat(chunks).toString()) as {
            timestamp: string;
          };
          arrivals.push({ at: Date.now(), eventAt: Date.parse(timestamp) });
          response.writeHead(204).end();
        });
      });
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      return server;
    }),
  );
  return {
    arrivals,
    urls: servers.map((server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}/`),
    close: () => Promise.all(servers.map((server) => new Promise((done) => server.close(done)))),
  };
}

/**
 * The lock cycle at `clients` clients, first with no webhook, then with two endpoints for every
 * event; and how long the lock transitions take from commit to the receivers. The API must
 * run with WEBHOOK_ALLOWED_HOSTS=127.0.0.1.
 */
export async function measureWebhookDelivery(
  databaseUrl: string,
  lockCycle: Operation,
  options: { clients: number; windowMs: number },
): Promise<WebhookDeliveryResult> {
  const withoutEndpoints = await runClosedLoop(options.clients, options.windowMs, lockCycle);
  const receivers = await startReceivers(2);
  const prisma = createPrismaClient(databaseUrl, { poolSize: 1 });
  try {
    for (const url of receivers.urls) {
      await createWebhook(prisma, { url, eventTypes: [], tables: [], withRows: false }, 'bench', [
        '127.0.0.1',
      ]);
    }
    const before = await prisma.outboxEvent.count();
    const started = Date.now();
    const withTwoEndpoints = await runClosedLoop(options.clients, options.windowMs, lockCycle);
    const seconds = (Date.now() - started) / 1000;
    const deliveredWhileRunning = receivers.arrivals.length;
    const events = (await prisma.outboxEvent.count()) - before;
    // The rest arrives after the clients stop: wait for it, so that every latency counts.
    const deadline = Date.now() + 60_000;
    while (receivers.arrivals.length < 2 * events && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return {
      lockCycle: { withoutEndpoints, withTwoEndpoints },
      deliveryLatencyMs: summarizeLatencies(
        receivers.arrivals.map(({ at, eventAt }) => at - eventAt),
      ),
      deliveredPerSecond: deliveredWhileRunning / seconds,
      events,
      missed: Math.max(0, 2 * events - receivers.arrivals.length),
    };
  } finally {
    await prisma.webhook.deleteMany();
    await prisma.$disconnect();
    await receivers.close();
  }
}
