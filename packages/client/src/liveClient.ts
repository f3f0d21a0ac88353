import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { pauseFor } from './retryTransient';
import type { TablelockApi } from './tablelockApi';

const LONGEST_RECONNECT_PAUSE_MS = 10_000;

/**
 * A graphql-ws client of the API that comes back by itself after any break, for as long as it
 * is wanted (until disposed). `onConnected` hears each connection, the first included: what was
 * announced while it was down was not heard, and the caller reads it instead.
 */
export function openLiveClient(
  api: TablelockApi,
  onConnected: (wasRetry: boolean) => void,
): Client {
  return createClient({
    url: api.live.url,
    webSocketImpl: WebSocket,
    connectionParams: api.live.connectionParams,
    retryAttempts: Number.POSITIVE_INFINITY,
    // Even after a close the protocol calls final (revoked key: 4403): what the caller reads
    // on reconnection says what it missed, so trying again costs nothing.
    shouldRetry: () => true,
    retryWait: (retries) =>
      pauseFor(Math.min(LONGEST_RECONNECT_PAUSE_MS, 500 * 2 ** retries) * (0.5 + Math.random())),
    on: {
      connected: (_socket, _payload, wasRetry) => onConnected(wasRetry),
    },
  });
}
