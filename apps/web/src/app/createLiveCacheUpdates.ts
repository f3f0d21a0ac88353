import type { QueryClient } from '@tanstack/react-query';
import { LOCK_EVENTS_KEY } from '../admin/adminQueries';
import { createRefreshBatch } from '../api/createRefreshBatch';
import type { LiveReactions } from '../live/LiveUpdates';
import { dropFirstRows } from '../table/grid/firstRowsOptions';
import { rowsReadBefore } from '../table/grid/rowsKey';
import { createTableCacheUpdates } from '../tables/createTableCacheUpdates';
import { TABLE_PAGES_KEY } from '../tables/useTablePage';
import { tablesOptions } from '../tables/useTables';
import { staleQueriesAfter, tableSavedBy } from './staleQueriesAfter';

// Well inside the promised second, and long enough to fold a burst of changes into one refetch.
const REFRESH_BATCH_MS = 150;

/**
 * What the live connection's news does to the cached queries: every lock change patches the
 * lock states the pages show from the states the event carries and refreshes the history;
 * every save refreshes that table's rows; a connection reads all of them again (the rows only
 * where they were read before it).
 */
export function createLiveCacheUpdates(queryClient: QueryClient): LiveReactions {
  const refresh = createRefreshBatch(queryClient, REFRESH_BATCH_MS);
  const tableStates = createTableCacheUpdates(queryClient, REFRESH_BATCH_MS);
  return {
    connected: () => {
      void queryClient.invalidateQueries(rowsReadBefore(Date.now()));
      refresh.add([tablesOptions.queryKey, TABLE_PAGES_KEY, LOCK_EVENTS_KEY]);
    },
    event: (event) => {
      tableStates.apply(event);
      const saved = tableSavedBy(event);
      if (saved !== null) dropFirstRows(queryClient, saved);
      refresh.add(staleQueriesAfter(event));
    },
    cancel: () => {
      refresh.cancel();
      tableStates.cancel();
    },
  };
}
