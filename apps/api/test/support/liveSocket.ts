import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '@tablelock/db';
import { LOCK_CHANNEL } from '@tablelock/lock';
import type { GraphQLFormattedError } from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

/** How a WebSocket ended: its close code and reason. */
export interface SocketClose {
  code: number;
  reason: string;
}

export interface SocketOptions {
  /** The API's base URL (http://host:port); the socket goes to ws://host:port/graphql. */
  url: string;
  /** Headers of the upgrade request (a session cookie, an Origin). */
  headers?: Record<string, string>;
  /** The payload of `connection_init` (`{ authorization: 'Bearer <key>' }` for API keys). */
  connectionParams?: Record<string, unknown>;
}

const wsUrl = (url: string) => `${url.replace(/^http/, 'ws')}/graphql`;

/**
 * A graphql-transport-ws handshake over a bare `ws` socket, so that the test decides exactly
 * what is sent. Resolves with 'acknowledged' (the socket stays open until `close`) or with how
 * the server closed the socket instead.
 */
export function openConnection(
  options: SocketOptions,
): Promise<{ outcome: 'acknowledged' | SocketClose; close(): Promise<void> }> {
  const socket = new WebSocket(wsUrl(options.url), 'graphql-transport-ws', {
    headers: options.headers ?? {},
  });
  const closed = new Promise<SocketClose>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  const close = async () => {
    socket.close();
    await closed;
  };
  socket.once('open', () =>
    socket.send(JSON.stringify({ type: 'connection_init', payload: options.connectionParams })),
  );
  socket.on('error', () => {});
  const acknowledged = new Promise<'acknowledged'>((resolve) =>
    socket.on('message', (data) => {
      if ((JSON.parse(String(data)) as { type: string }).type === 'connection_ack') {
        resolve('acknowledged');
      }
    }),
  );
  return Promise.race([acknowledged, closed]).then((outcome) => ({ outcome, close }));
}

/** What one subscription has received so far, in order. */
export type SubscriptionMessage =
  | { next: Record<string, unknown> }
  | { errors: readonly GraphQLFormattedError[] }
  | { closed: SocketClose }
  | { complete: true };

export interface LiveSubscription {
  readonly messages: readonly SubscriptionMessage[];
  /** The first message, received already or still to come, that matches; rejects after `timeoutMs`. */
  waitFor(
    predicate: (message: SubscriptionMessage) => boolean,
    timeoutMs?: number,
  ): Promise<SubscriptionMessage>;
}

/** One graphql-ws connection (a real `graphql-ws` client) carrying any number of subscriptions. */
export interface LiveSocket {
  subscribe(query: string, variables?: Record<string, unknown>): LiveSubscription;
  /** Resolves when the server closes the socket, with its code and reason. */
  closed: Promise<SocketClose>;
  dispose(): Promise<void>;
}

export function openLiveSocket(options: SocketOptions): LiveSocket {
  const headers = options.headers ?? {};
  let onClosed: (close: SocketClose) => void = () => {};
  const closed = new Promise<SocketClose>((resolve) => {
    onClosed = resolve;
  });
  const client = createClient({
    url: wsUrl(options.url),
    webSocketImpl: class extends WebSocket {
      constructor(address: string | URL, protocols?: string | string[]) {
        super(address, protocols, { headers });
      }
    },
    ...(options.connectionParams ? { connectionParams: options.connectionParams } : {}),
    retryAttempts: 0,
    on: {
      closed: (event) => {
        const { code, reason } = event as SocketClose;
        onClosed({ code, reason: String(reason) });
      },
    },
  });
  return {
    subscribe(query, variables) {
      const messages = new Arrivals<SubscriptionMessage>();
      client.subscribe<Record<string, unknown>>(
        { query, ...(variables ? { variables } : {}) },
        {
          next: (result) =>
            messages.push(result.errors ? { errors: result.errors } : { next: result.data ?? {} }),
          error: (error) => {
            if (Array.isArray(error)) return messages.push({ errors: error });
            const { code, reason } = error as SocketClose;
            messages.push({ closed: { code, reason: String(reason) } });
          },
          complete: () => messages.push({ complete: true }),
        },
      );
      return {
        messages: messages.values,
        waitFor: (predicate, timeoutMs = 5_000) => messages.waitFor(predicate, timeoutMs),
      };
    },
    closed,
    dispose: () => client.dispose() as Promise<void>,
  };
}

/** Values that arrive over time. */
class Arrivals<T> {
  readonly values: T[] = [];
  readonly #listeners = new Set<() => void>();

  push(value: T): void {
    this.values.push(value);
    for (const listener of this.#listeners) listener();
  }

  waitFor(predicate: (value: T) => boolean, timeoutMs: number): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const listener = () => {
        const value = this.values.find(predicate);
        if (value !== undefined) finish(() => resolve(value));
      };
      const timer = setTimeout(
        () =>
          finish(() =>
            reject(
              new Error(`nothing matching within ${timeoutMs} ms: ${JSON.stringify(this.values)}`),
            ),
          ),
        timeoutMs,
      );
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        this.#listeners.delete(listener);
        settle();
      };
      this.#listeners.add(listener);
      listener();
    });
  }
}

export const PROBE_ACTOR = '__probe__';

/** Whether `message` is one of probeUntil's probes, received on a `lockChanged { actor }` subscription. */
export const isProbe = (message: SubscriptionMessage) =>
  'next' in message && (message.next.lockChanged as { actor?: string })?.actor === PROBE_ACTOR;
const PROBE_EVERY_MS = 100;
const READY_TIMEOUT_MS = 10_000;

/** A lock event as the lock transactions announce it on LOCK_CHANNEL. */
export function lockEventPayload(actor: string, table: string): string {
  return JSON.stringify({
    id: `${actor}-${randomUUID()}`,
    at: new Date().toISOString(),
    action: 'denied',
    table,
    actor,
    editor: null,
    token: null,
    reason: null,
    rowsChanged: null,
    previousEditor: null,
  });
}

/**
 * Announces probe lock events on the lock channel (through Postgres, as real changes are)
 * until `ready` holds: graphql-ws does not say when a subscription has started listening.
 */
export async function probeUntil(prisma: PrismaClient, ready: () => boolean): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`not ready within ${READY_TIMEOUT_MS} ms`);
    await prisma.$executeRaw`
      SELECT pg_notify(${LOCK_CHANNEL}, ${lockEventPayload(PROBE_ACTOR, PROBE_ACTOR)})`;
    await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
  }
}
