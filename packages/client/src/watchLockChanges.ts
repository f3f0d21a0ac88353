import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import type { LockChangedSubscription } from './generated/graphql';
import { lockChangedSubscription } from './lockOperations';
import { pauseFor } from './retryTransient';
import type { TablelockApi } from './tablelockApi';

/** A lock change as `lockChanged` announces it. */
export type LockChange = LockChangedSubscription['lockChanged'];

export interface LockChangeHandlers {
  onChange(change: LockChange): void;
  /** The connection came back after a break: changes made meanwhile were not announced. */
  onReconnected(): void;
}

const LONGEST_RECONNECT_PAUSE_MS = 10_000;

/**
 * Subscribes to `lockChanged` (of `table`, or of every table when null) over graphql-ws until
 * the returned function is called. The connection comes back by itself after any break, for as
 * long as it is wanted; a change can be missed while it is down, which `onReconnected` says.
 */
export function watchLockChanges(
  api: TablelockApi,
  table: string | null,
  handlers: LockChangeHandlers,
): () => Promise<void> {
  const client = createClient({
    url: api.live.url,
    webSocketImpl: WebSocket,
    connectionParams: api.live.connectionParams,
    retryAttempts: Number.POSITIVE_INFINITY,
    // Even after a close the protocol calls final (revoked key: 4403): the lease renewals say
    // whether the lock survived, so trying again costs nothing while the lock is held.
    shouldRetry: () => true,
    retryWait: (retries) =>
      pauseFor(Math.min(LONGEST_RECONNECT_PAUSE_MS, 500 * 2 ** retries) * (0.5 + Math.random())),
    on: {
      connected: (_socket, _payload, wasRetry) => {
        if (wasRetry) handlers.onReconnected();
      },
    },
  });
  client.subscribe<LockChangedSubscription>(
    { query: lockChangedSubscription.toString(), variables: { table } },
    {
      next: (result) => {
        if (result.data) handlers.onChange(result.data.lockChanged);
      },
      // A refused subscription: the lease renewals still find out whether the lock was lost.
      error: () => {},
      complete: () => {},
    },
  );
  return async () => {
    await client.dispose();
  };
}
