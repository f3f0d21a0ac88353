import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { graphqlRequest } from '../api/graphqlRequest';
import { type TablePageView, tablePageQueryKey } from '../api/queryKeys';
import type { TablePageQuery } from '../generated/graphql';
import { fallbackRefreshMs } from '../live/fallbackRefreshMs';
import { useLiveStatus } from '../live/useLiveStatus';
import { tablePageQuery } from './tableOperations';

export type TablePageData = TablePageQuery['tablePage'];

/**
 * One page of the tables page, searched and filtered by the API. Live events patch it in place
 * (see createTableCacheUpdates); while the next page loads, the last one stays on screen.
 */
export function useTablePage(view: TablePageView) {
  const live = useLiveStatus();
  return useQuery({
    queryKey: tablePageQueryKey(view),
    queryFn: async () =>
      (
        await graphqlRequest(tablePageQuery, {
          search: view.search || null,
          status: view.status,
          offset: view.offset,
          limit: view.limit,
        })
      ).tablePage,
    placeholderData: keepPreviousData,
    refetchInterval: fallbackRefreshMs(live),
  });
}
