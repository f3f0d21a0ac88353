import { performance } from 'node:perf_hooks';
import pg from 'pg';
import WebSocket from 'ws';
import { createGraphQLClient, LOCK_MUTATION, type LockData } from '../graphqlClient';
import { type LatencySummary, summarizeLatencies } from '../latency';

export interface FanOutResult {
  subscribers: number;
  /** API processes the subscribers were spread over (each hears the change from Postgres). */
  apiProcesses?: number;
  /** Subscribers that authenticated with a session cookie; the others with API keys. */
  sessionSubscribers: number;
  /** Distinct selection sets among the subscriptions. */
  selectionSets: number;
  changes: number;
  /** From sending the mutation to each subscriber's event, over every subscriber and change. */
  latencyMs: LatencySummary;
  /** Events that did not reach a subscriber within EVENT_TIMEOUT_MS. */
  missed: number;
  /**
   * Transactions the database committed per change while it fanned out, the change's own
   * included; null when not measured (quick mode: the statistics need seconds to settle).
   */
  databaseTransactionsPerChange: number | null;
  errors: number;
  firstError?: string;
}

export interface Subscriber {
  /** `tablelock_session=<token>` for a session, else null. */
  cookie: string | null;
  /** `Bearer <key>` for an API key, else null. */
  authorization: string | null;
}

const TABLE = 'suppliers';
const EVENT_TIMEOUT_MS = 10_000;
// Two selection sets, as a status page and a table's own page ask for them.
const SUBSCRIPTIONS = [
  'subscription { lockChanged { id action table actor editor } }',
  `subscription { lockChanged(table: "${TABLE}") { id at action table actor editor token reason } }`,
];
const OPEN_AT_ONCE = 50;
// A backend reports its statistics at the latest 10 s after it went idle (PGSTAT_IDLE_INTERVAL).
const STATISTICS_SETTLE_MS = 11_000;

/**
 * `subscribers` graphql-ws connections (one subscription each), spread in turn over the API
 * processes at `subscriberUrls`, wait for lock changes; an editor then changes `suppliers`' lock
 * through `baseUrl` `changes` times, one change at a time, and each change's latency to every
 * subscriber is measured from the moment its mutation was sent.
 */
export async function measureFanOut(
  baseUrl: string,
  subscriberUrls: string[],
  databaseUrl: string,
  editorKey: string,
  subscribers: Subscriber[],
  changes: number,
  countTransactions: boolean,
): Promise<FanOutResult> {
  const sockets: LiveSubscriber[] = [];
  const api = createGraphQLClient(baseUrl, 1);
  const latencies: number[] = [];
  let missed = 0;
  let errors = 0;
  let firstError: string | undefined;
  let transactions: number | null = null;
  try {
    for (let i = 0; i < subscribers.length; i += OPEN_AT_ONCE) {
      const batch = subscribers.slice(i, i + OPEN_AT_ONCE);
      sockets.push(
        ...(await Promise.all(
          batch.map((subscriber, j) =>
            openSubscriber(
              subscriberUrls[(i + j) % subscriberUrls.length] ?? baseUrl,
              subscriber,
              SUBSCRIPTIONS[(i + j) % SUBSCRIPTIONS.length] ?? '',
            ),
          ),
        )),
      );
    }
    const change = async (index: number) => {
      const target = index % 2 === 0 ? 'editing' : 'normal';
      const began = performance.now();
      const arrivals = sockets.map((socket) => socket.nextEvent(EVENT_TIMEOUT_MS));
      const data = await api.request<LockData>(editorKey, LOCK_MUTATION, {
        input: {
          table_name: TABLE,
          current_status: target === 'editing' ? 'normal' : 'editing',
          target_status: target,
        },
      });
      if (!data.UpdateTableStatusWithLock.lock_result) throw new Error(`${TABLE} was refused`);
      return (await Promise.all(arrivals)).map((at) => (at === null ? null : at - began));
    };
    // Subscriptions are live once they are answered: the first change (not counted) proves it.
    await change(0);
    const counter = countTransactions ? await openTransactionCounter(databaseUrl) : undefined;
    const before = await counter?.settled();
    for (let i = 1; i <= changes; i++) {
      for (const latency of await change(i)) {
        if (latency === null) missed++;
        else latencies.push(latency);
      }
    }
    const after = await counter?.settled();
    await counter?.close();
    if (before !== undefined && after !== undefined) {
      // The counter's own reads are transactions too: one per settled().
      transactions = (after - before - 1) / changes;
    }
    // Left as it was found.
    if (changes % 2 === 0) await change(changes + 1);
  } catch (error) {
    errors++;
    firstError = (error as Error).message;
  } finally {
    await api.close();
    for (const socket of sockets) socket.close();
  }
  return {
    subscribers: subscribers.length,
    apiProcesses: subscriberUrls.length,
    sessionSubscribers: subscribers.filter((subscriber) => subscriber.cookie).length,
    selectionSets: Math.min(SUBSCRIPTIONS.length, subscribers.length),
    changes,
    latencyMs: summarizeLatencies(latencies),
    missed,
    databaseTransactionsPerChange: transactions,
    errors,
    ...(firstError ? { firstError } : {}),
  };
}

interface LiveSubscriber {
  /** When (performance.now()) the next event arrives, or null if none does within `timeoutMs`. */
  nextEvent(timeoutMs: number): Promise<number | null>;
  close(): void;
}

/** A bare graphql-transport-ws connection with one subscription, acknowledged. */
function openSubscriber(
  baseUrl: string,
  subscriber: Subscriber,
  query: string,
): Promise<LiveSubscriber> {
  const socket = new WebSocket(
    `${baseUrl.replace(/^http/, 'ws')}/graphql`,
    'graphql-transport-ws',
    {
      headers: subscriber.cookie ? { cookie: subscriber.cookie } : {},
    },
  );
  let waiting: ((at: number) => void) | undefined;
  return new Promise((resolve, reject) => {
    socket.once('open', () =>
      socket.send(
        JSON.stringify({
          type: 'connection_init',
          payload: subscriber.authorization ? { authorization: subscriber.authorization } : {},
        }),
      ),
    );
    socket.once('error', reject);
    socket.once('close', (code, reason) => reject(new Error(`closed ${code} ${reason}`)));
    socket.on('message', (data) => {
      const at = performance.now();
      const message = JSON.parse(String(data)) as { type: string; payload?: unknown };
      if (message.type === 'connection_ack') {
        socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query } }));
        resolve({
          nextEvent: (timeoutMs) =>
            new Promise((settle) => {
              const timer = setTimeout(() => settle(null), timeoutMs);
              waiting = (arrived) => {
                clearTimeout(timer);
                settle(arrived);
              };
            }),
          close: () => socket.close(),
        });
      } else if (message.type === 'next') {
        const settle = waiting;
        waiting = undefined;
        settle?.(at);
      } else if (message.type === 'error') {
        reject(new Error(`subscription refused: ${JSON.stringify(message.payload)}`));
      }
    });
  });
}

/** Transactions the bench database has committed, as its statistics say once they settled. */
async function openTransactionCounter(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  return {
    async settled(): Promise<number> {
      await new Promise((resolve) => setTimeout(resolve, STATISTICS_SETTLE_MS));
      const { rows } = await client.query<{ count: string }>(
        `SELECT xact_commit + xact_rollback AS count FROM pg_stat_database
         WHERE datname = current_database()`,
      );
      return Number(rows[0]?.count ?? 0);
    },
    close: () => client.end(),
  };
}
