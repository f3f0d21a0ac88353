import { useQueryClient } from '@tanstack/react-query';
import type { Client } from 'graphql-ws';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { createRefreshBatch } from '../api/createRefreshBatch';
import {
  LOCK_EVENTS_QUERY_KEY,
  ROWS_QUERY_KEY,
  TABLE_PAGE_QUERY_KEY,
  TABLES_QUERY_KEY,
} from '../api/queryKeys';
import { staleQueriesAfter } from '../app/staleQueriesAfter';
import type { LockChangedSubscription } from '../generated/graphql';
import { createTableCacheUpdates } from '../tables/createTableCacheUpdates';
import { createLiveClient } from './createLiveClient';
import { type LiveStatus, LiveUpdatesContext, type LockEventListener } from './liveContext';
import { lockChangedSubscription } from './lockChangedSubscription';

// Well inside the promised second, and long enough to fold a burst of changes into one refetch.
const REFRESH_BATCH_MS = 150;

/**
 * The app's one live connection, for the signed-in user: every lock change patches the lock
 * states the pages show from the states the event carries (a reconnection reads them again),
 * every save refreshes that table's rows, and each event is handed to the components that
 * listen (the table page, to learn at once that its lock has ended); the client serves the
 * page's other subscriptions (waiting in line for a table) on the same socket. Mounted per session, because the socket authenticates
 * with the session cookie once, when it connects: a new login needs a new socket.
 */
export function LiveUpdates({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const [listeners] = useState(() => new Set<LockEventListener>());
  const [client, setClient] = useState<Client | null>(null);

  useEffect(() => {
    const refresh = createRefreshBatch(queryClient, REFRESH_BATCH_MS);
    const tableStates = createTableCacheUpdates(queryClient, REFRESH_BATCH_MS);
    const client = createLiveClient({
      onStatus: setStatus,
      // A gap: what changed meanwhile was not announced, so what is shown is read again.
      onConnected: () =>
        refresh.add([
          TABLES_QUERY_KEY,
          TABLE_PAGE_QUERY_KEY,
          LOCK_EVENTS_QUERY_KEY,
          ROWS_QUERY_KEY,
        ]),
    });
    const unsubscribe = client.subscribe<LockChangedSubscription>(
      { query: lockChangedSubscription.toString() },
      {
        next: ({ data }) => {
          if (!data) return;
          tableStates.apply(data.lockChanged);
          refresh.add(staleQueriesAfter(data.lockChanged));
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
      refresh.cancel();
      tableStates.cancel();
      void client.dispose();
    };
  }, [queryClient, listeners]);

  const [listen] = useState(() => (listener: LockEventListener) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  });
  const live = useMemo(() => ({ status, listen, client }), [status, listen, client]);
  return <LiveUpdatesContext.Provider value={live}>{children}</LiveUpdatesContext.Provider>;
}
