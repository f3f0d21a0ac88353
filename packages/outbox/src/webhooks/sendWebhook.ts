import http from 'node:http';
import https from 'node:https';
import { Webhook } from 'standardwebhooks';
import type { WebhookTarget } from './webhookTarget';

export interface WebhookMessage {
  /** The webhook-id header: receivers de-duplicate by it. */
  id: string;
  body: Record<string, unknown>;
}

export interface SendLimits {
  timeoutMs: number;
  /** The most bytes of the answer read; the rest is cut off (it is never needed). */
  maxResponseBytes: number;
}

export interface SendOutcome {
  delivered: boolean;
  status: number | null;
  latencyMs: number;
  error: string | null;
}

/**
 * POSTs `message` to `target`, signed by the Standard Webhooks specification with `secret`.
 * Delivered on a 2xx answer within the time limit; a redirect is an answer like any other
 * (not followed).
 */
export function sendWebhook(
  target: WebhookTarget,
  secret: string,
  message: WebhookMessage,
  limits: SendLimits,
): Promise<SendOutcome> {
  const payload = JSON.stringify(message.body);
  const timestamp = new Date();
  const signature = new Webhook(secret).sign(message.id, timestamp, payload);
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  const client = target.url.protocol === 'https:' ? https : http;
  const deadline = AbortSignal.timeout(limits.timeoutMs);
  return new Promise((resolve) => {
    const request = client.request(
      target.url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'tablelock-webhooks',
          'webhook-id': message.id,
          'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
          'webhook-signature': signature,
        },
        // The address resolveWebhookTarget checked, whatever DNS says now.
        lookup: (_host, options, callback) => {
          if ((options as { all?: boolean }).all) {
            callback(null, [{ address: target.address, family: target.family }]);
          } else {
            callback(null, target.address, target.family);
          }
        },
        signal: deadline,
      },
      (response) => {
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > limits.maxResponseBytes) response.destroy();
        });
        response.on('close', () => {
          const status = response.statusCode ?? null;
          const delivered = status !== null && status >= 200 && status < 300;
          resolve({
            delivered,
            status,
            latencyMs: latency(),
            error: delivered ? null : `HTTP ${status}`,
          });
        });
      },
    );
    request.on('error', (error) => {
      const reason = deadline.aborted ? `no answer within ${limits.timeoutMs} ms` : error.message;
      resolve({ delivered: false, status: null, latencyMs: latency(), error: reason });
    });
    request.end(payload);
  });
}
