import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import type { Client } from 'graphql-ws';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import type { LockChangedSubscription } from '../generated/graphql';
import { createLiveClient } from './createLiveClient';
import {
  type LiveLockEvent,
  type LiveStatus,
  LiveUpdatesContext,
  type LockEventListener,
} from './liveContext';
import { lockChangedSubscription } from './lockChangedSubscription';

/** What the app does with the connection's news, before any listener hears of it. */
export interface LiveReactions {
  /** A gap: what changed meanwhile was not announced. */
  connected(): void;
  event(event: LiveLockEvent): void;
  cancel(): void;
}

interface LiveUpdatesProps {
  /** Called once per connection; a stable function (module level), or the socket reconnects. */
  reactions: (queryClient: QueryClient) => LiveReactions;
  children: ReactNode;
}

/**
 * The app's one live connection, for the signed-in user: every announced lock change goes to
 * `reactions` (the cached queries), then to the components that listen (the table page, to
 * learn at once that its lock has ended); the client serves the page's other subscriptions
 * (waiting in line for a table) on the same socket. Mounted per session, because the socket
 * authenticates with the session cookie once, when it connects: a new login needs a new socket.
 */
export function LiveUpdates({ reactions, children }: LiveUpdatesProps) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const [since, setSince] = useState<number | null>(null);
  const [listeners] = useState(() => new Set<LockEventListener>());
  const [client, setClient] = useState<Client | null>(null);

  useEffect(() => {
    const react = reactions(queryClient);
    const client = createLiveClient({
      onStatus: (next) => {
        setStatus(next);
        if (next !== 'live') setSince(null);
      },
      onConnected: () => {
        setSince(Date.now());
        react.connected();
      },
    });
    const unsubscribe = client.subscribe<LockChangedSubscription>(
      { query: lockChangedSubscription.toString() },
      {
        next: ({ data }) => {
          if (!data) return;
          react.event(data.lockChanged);
          for (const listener of listeners) listener(data.lockChanged);
        },
        // Only a refusal the client will not retry ends up here: the pages fall back to polling.
        error: () => setStatus('offline'),
        complete: () => {},
      },
    );
    setClient(client);
    return () => {
      setClient(null);
      unsubscribe();
      react.cancel();
      void client.dispose();
    };
  }, [queryClient, reactions, listeners]);

  const [listen] = useState(() => (listener: LockEventListener) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  });
  const live = useMemo(() => ({ status, since, listen, client }), [status, since, listen, client]);
  return <LiveUpdatesContext.Provider value={live}>{children}</LiveUpdatesContext.Provider>;
}
