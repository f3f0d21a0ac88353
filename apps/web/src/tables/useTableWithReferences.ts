import { queryOptions, useQuery } from '@tanstack/react-query';
import { graphqlRequest } from '../api/graphqlRequest';
import { fallbackRefreshMs } from '../live/fallbackRefreshMs';
import { useLiveStatus } from '../live/useLiveStatus';
import { tableWithReferencesQuery } from './tableOperations';
import type { TableInfo } from './useTables';

/** Under `tables`, so that whatever makes every table's state out of date reaches it too. */
export const TABLE_WITH_REFERENCES_KEY = ['tables', 'withReferences'] as const;

/**
 * One table with its lock state and the tables it references (whose FK locks editing it
 * takes), in one request: what a table page shows, read by name rather than as the whole
 * registry, which with thousands of tables held the page's first rows back by a second and
 * more. Empty when no table has that name.
 */
export const tableWithReferencesOptions = (name: string) =>
  queryOptions({
    queryKey: [...TABLE_WITH_REFERENCES_KEY, name],
    queryFn: async (): Promise<TableInfo[]> => {
      const [found] = (await graphqlRequest(tableWithReferencesQuery, { name })).tablesNamed;
      if (!found) return [];
      const { referencedTables, ...table } = found;
      return [table, ...referencedTables];
    },
  });

/** The table and its references, kept fresh as useTables keeps every table. */
export function useTableWithReferences(name: string) {
  const live = useLiveStatus();
  return useQuery({
    ...tableWithReferencesOptions(name),
    refetchInterval: fallbackRefreshMs(live),
  });
}
