import { useQuery } from '@tanstack/react-query';
import { graphqlRequest } from '../api/graphqlRequest';
import { TABLES_QUERY_KEY } from '../api/queryKeys';
import type { TablesQuery } from '../generated/graphql';
import { tablesQuery } from './tableOperations';

export type TableInfo = TablesQuery['tables'][number];

// Lock states change under the user's eyes; until live updates arrive, a short poll (and a
// refetch whenever the window regains focus) keeps what is shown close to the truth.
const TABLES_REFRESH_MS = 5000;

export async function fetchTables(): Promise<TableInfo[]> {
  return (await graphqlRequest(tablesQuery)).tables;
}

/** Every master table with its lock state, kept fresh while shown. */
export function useTables() {
  return useQuery({
    queryKey: TABLES_QUERY_KEY,
    queryFn: fetchTables,
    refetchInterval: TABLES_REFRESH_MS,
  });
}
