import { queryOptions, useQuery } from '@tanstack/react-query';
import { graphqlRequest } from '../api/graphqlRequest';
import type { TableInfoFieldsFragment } from '../generated/graphql';
import { fallbackRefreshMs } from '../live/fallbackRefreshMs';
import { useLiveStatus } from '../live/useLiveStatus';
import { tablesQuery } from './tableOperations';

export type TableInfo = TableInfoFieldsFragment;

/** Every master table with its lock state: what a change of lock states makes out of date. */
export const tablesOptions = queryOptions({
  queryKey: ['tables'],
  queryFn: async (): Promise<TableInfo[]> => (await graphqlRequest(tablesQuery)).tables,
});

/**
 * Every master table with its lock state, kept fresh while shown: live events patch it as
 * locks change (and it is refetched when the window regains focus); `refreshMs` polls besides.
 */
export function useTables({ refreshMs }: { refreshMs?: number } = {}) {
  const live = useLiveStatus();
  return useQuery({ ...tablesOptions, refetchInterval: refreshMs ?? fallbackRefreshMs(live) });
}
