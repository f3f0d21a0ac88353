import { useQuery } from '@tanstack/react-query';
import { graphqlRequest } from '../api/graphqlRequest';
import { TABLES_QUERY_KEY } from '../api/queryKeys';
import type { TableInfoFieldsFragment } from '../generated/graphql';
import { fallbackRefreshMs } from '../live/fallbackRefreshMs';
import { useLiveStatus } from '../live/useLiveStatus';
import { tablesQuery } from './tableOperations';

export type TableInfo = TableInfoFieldsFragment;

export async function fetchTables(): Promise<TableInfo[]> {
  return (await graphqlRequest(tablesQuery)).tables;
}

/**
 * Every master table with its lock state, kept fresh while shown: live events patch it as
 * locks change (and it is refetched when the window regains focus); `refreshMs` polls besides.
 */
export function useTables({ refreshMs }: { refreshMs?: number } = {}) {
  const live = useLiveStatus();
  return useQuery({
    queryKey: TABLES_QUERY_KEY,
    queryFn: fetchTables,
    refetchInterval: refreshMs ?? fallbackRefreshMs(live),
  });
}
