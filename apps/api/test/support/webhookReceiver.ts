import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** A message as the receiver got it, its signature checked by the specification's library. */
export interface ReceivedMessage {
  id: string;
  headers: Record<string, string>;
  body: string;
  payload: {
    type: string;
    timestamp: string;
    data: Record<string, unknown> & { id: string; table: string };
  };
}

/** A real HTTP endpoint for webhooks on 127.0.0.1, which can go away and come back. */
export interface WebhookReceiver {
  readonly url: string;
  /** Every message with a valid signature, as it came (repeats included). */
  readonly received: ReceivedMessage[];
  /** Messages whose signature did not verify. */
  readonly forged: number;
  /** The signing secret createWebhook showed. */
  secret: string;
  /**
   * Messages that came while another of the same table was still unanswered: a second
   * sender at once, or order per table not kept.
   */
  readonly overlaps: number;
  /** Awaited before a verified message is answered: a test holds its answer back with it. */
  beforeAnswer: (message: ReceivedMessage) => Promise<void>;
  /** Stops listening: connections are refused until `start`. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  let port = 0;
  let server: http.Server | undefined;
  const unanswered = new Set<string>();
  const receiver = {
    url: '',
    received: [] as ReceivedMessage[],
    forged: 0,
    secret: '',
    overlaps: 0,
    beforeAnswer: async (_message: ReceivedMessage) => {},
    async start() {
      server = http.createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          const body = Buffer.concat(chunks).toString();
          const headers = request.headers as Record<string, string>;
          let message: ReceivedMessage;
          try {
            const payload = new Webhook(receiver.secret).verify(body, headers);
            message = {
              id: headers['webhook-id'] ?? '',
              headers,
              body,
              payload: payload as ReceivedMessage['payload'],
            };
          } catch {
            receiver.forged++;
            response.writeHead(400).end();
            return;
          }
          receiver.received.push(message);
          const table = message.payload.data.table;
          if (unanswered.has(table)) receiver.overlaps++;
          unanswered.add(table);
          // A sender that went away mid-message (killed) is no longer sending it.
          response.on('close', () => unanswered.delete(table));
          void receiver.beforeAnswer(message).then(() => {
            unanswered.delete(table);
            response.writeHead(204).end();
          });
        });
      });
      server.listen(port, '127.0.0.1');
      await once(server, 'listening');
      port = (server.address() as AddressInfo).port;
      receiver.url = `http://127.0.0.1:${port}/hooks`;
    },
    async stop() {
      const closing = server;
      if (!closing) return;
      server = undefined;
      closing.closeAllConnections();
      closing.close();
      await once(closing, 'close');
    },
  };
  await receiver.start();
  return receiver;
}

/** The messages without repeats (by webhook-id), in the order they first came. */
export function withoutRepeats(messages: readonly ReceivedMessage[]): ReceivedMessage[] {
  const seen = new Set<string>();
  return messages.filter((message) => !seen.has(message.id) && seen.add(message.id));
}
