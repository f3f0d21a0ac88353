import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { graphqlRequest } from '../api/graphqlRequest';
import type { TablePageQuery, TableStatus } from '../generated/graphql';
import { fallbackRefreshMs } from '../live/fallbackRefreshMs';
import { useLiveStatus } from '../live/useLiveStatus';
import { tablePageQuery } from './tableOperations';

export type TablePageData = TablePageQuery['tablePage'];

/** Which page of the tables page: the name search, the status shown, and where. */
export interface TablePageView {
  search: string;
  status: TableStatus | null;
  offset: number;
  limit: number;
}

/** The key all pages of the tables page share, each under its view. */
export const TABLE_PAGES_KEY = ['tablePage'] as const;

export const tablePageOptions = (view: TablePageView) =>
  queryOptions({
    queryKey: [...TABLE_PAGES_KEY, view],
    queryFn: async (): Promise<TablePageData> =>
      (
        await graphqlRequest(tablePageQuery, {
          search: view.search || null,
          status: view.status,
          offset: view.offset,
          limit: view.limit,
        })
      ).tablePage,
  });

/**
 * One page of the tables page, searched and filtered by the API. Live events patch it in place
 * (see createTableCacheUpdates); while the next page loads, the last one stays on screen.
 */
export function useTablePage(view: TablePageView) {
  const live = useLiveStatus();
  return useQuery({
    ...tablePageOptions(view),
    placeholderData: keepPreviousData,
    refetchInterval: fallbackRefreshMs(live),
  });
}
