import {
  type ApiProcess,
  createTestApiKey,
  createTestDatabase,
  freePort,
  poll,
  startApiProcess,
  stopApiProcess,
  type TestDatabase,
} from '@tablelock/test-support';
import type { TypedDocumentString } from '../generated/graphql';

/** The compiled API as its own process, on a database of the test file's own. */
export interface ClientTestApi {
  readonly url: string;
  readonly database: TestDatabase;
  /** A new API key: its secret. */
  newKey(name: string, role: 'editor' | 'admin'): Promise<string>;
  /** Sends `document` with API key `secret`; its data, or throws with its errors. */
  send<TResult, TVariables>(
    secret: string,
    document: TypedDocumentString<TResult, TVariables>,
    variables: TVariables,
  ): Promise<TResult>;
  /**
   * Resolves once the API serves exactly `count` lockChanged subscriptions: graphql-ws does not
   * say when a subscription listens, and a closed one is counted until the API sees it close.
   */
  liveSubscriptionsReach(count: number): Promise<void>;
  /** Stops the API process, calls `whileDown`, and starts it again on the same port and database. */
  restart(whileDown: () => void | Promise<void>): Promise<void>;
  /** Starts another API process on the same database (stopped by `stop`): its URL. */
  startAnother(): Promise<string>;
  stop(): Promise<void>;
}

/**
 * The shortest lease the tests' API accepts (its LEASE_MIN_SECONDS; 15 s in production), so
 * that renewals, every third of a lease, come within seconds.
 */
export const SHORT_LEASE_SECONDS = 5;
const API_SETTINGS = { LEASE_MIN_SECONDS: String(SHORT_LEASE_SECONDS) };

export async function startClientTestApi(): Promise<ClientTestApi> {
  const database = await createTestDatabase();
  const port = await freePort();
  const started: ApiProcess[] = [];
  let api = await startApiProcess('client-tests', database.url, port, started, API_SETTINGS);
  return {
    url: api.url,
    database,
    newKey: (name, role) => createTestApiKey(database.prisma, name, role),
    send: (secret, document, variables) => send(api.url, secret, document, variables),
    async liveSubscriptionsReach(count) {
      await poll(`${count} live subscriptions`, 10_000, async () => {
        const metrics = await (await fetch(`${api.url}/metrics`)).text();
        const live = Number(/^tablelock_live_subscriptions (\d+)$/m.exec(metrics)?.[1]);
        return live === count ? true : undefined;
      });
    },
    async restart(whileDown) {
      await stopApiProcess(api);
      await whileDown();
      api = await startApiProcess('client-tests', database.url, port, started, API_SETTINGS);
    },
    async startAnother() {
      const another = await startApiProcess(
        `client-tests-${started.length + 1}`,
        database.url,
        await freePort(),
        started,
        API_SETTINGS,
      );
      return another.url;
    },
    async stop() {
      await Promise.all(started.map(stopApiProcess));
      await database.close();
    },
  };
}

async function send<TResult, TVariables>(
  url: string,
  secret: string,
  document: TypedDocumentString<TResult, TVariables>,
  variables: TVariables,
): Promise<TResult> {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
    body: JSON.stringify({ query: document.toString(), variables }),
  });
  const body = (await response.json()) as { data?: TResult; errors?: unknown[] };
  if (body.errors || !body.data) throw new Error(JSON.stringify(body.errors));
  return body.data;
}
