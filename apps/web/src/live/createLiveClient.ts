import { type Client, createClient } from 'graphql-ws';
import type { LiveStatus } from './liveContext';

interface LiveClientOptions {
  onStatus: (status: LiveStatus) => void;
  /**
   * The socket is up (again): whatever changed while it was not (before it first connected,
   * or during an outage) was not announced to this page.
   */
  onConnected: () => void;
}

// Reconnect soon after a blip, then back off, but never longer than this: a user returning to
// a tab after a server restart should not wait minutes for live updates.
const MAX_RETRY_WAIT_MS = 10_000;
// A socket can die without a close event (a laptop sleeps, a proxy drops it): ping now and
// then, and start over when no pong comes back in time.
const PING_EVERY_MS = 15_000;
const PONG_TIMEOUT_MS = 5_000;

/** The API's GraphQL path on this page's own host: the session cookie goes with the upgrade. */
function liveUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss:' : 'ws:'}//${host}/graphql`;
}

/**
 * A graphql-ws client that keeps trying: a connection refused, dropped or gone silent is
 * retried with a capped, jittered backoff for as long as the client lives. Only a close that
 * says retrying cannot help (a protocol error) ends it.
 */
export function createLiveClient({ onStatus, onConnected }: LiveClientOptions): Client {
  let pongTimer: ReturnType<typeof setTimeout> | undefined;
  const client: Client = createClient({
    url: liveUrl,
    retryAttempts: Number.POSITIVE_INFINITY,
    // The default retries only clean closes; a browser reports a refused connection as an error.
    shouldRetry: () => true,
    retryWait: (retries) =>
      new Promise((resolve) =>
        setTimeout(resolve, Math.min(MAX_RETRY_WAIT_MS, 500 * 2 ** retries) + Math.random() * 1000),
      ),
    keepAlive: PING_EVERY_MS,
    on: {
      connected: () => {
        onStatus('live');
        onConnected();
      },
      closed: () => {
        clearTimeout(pongTimer);
        onStatus('offline');
      },
      ping: (received) => {
        if (!received) pongTimer = setTimeout(() => client.terminate(), PONG_TIMEOUT_MS);
      },
      pong: (received) => {
        if (received) clearTimeout(pongTimer);
      },
    },
  });
  return client;
}
