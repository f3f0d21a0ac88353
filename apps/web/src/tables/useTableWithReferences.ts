import { queryOptions, useQuery } from '@tanstack/react-query';
import { graphqlRequest } from '../api/graphqlRequest';
import { fallbackRefreshMs } from '../live/fallbackRefreshMs';
import { useLiveStatus } from '../live/useLiveStatus';
import { tablesNamedQuery } from './tableOperations';
import type { TableInfo } from './useTables';

/** Under `tables`, so that whatever makes every table's state out of date reaches it too. */
export const TABLE_WITH_REFERENCES_KEY = ['tables', 'withReferences'] as const;

/**
 * One table with its lock state, then the tables it references (whose FK locks editing it
 * takes): what a table page shows, read by name rather than as the whole registry, which with
 * thousands of tables held the page's first rows back by a second and more. Empty when no
 * table has that name.
 */
export const tableWithReferencesOptions = (name: string) =>
  queryOptions({
    queryKey: [...TABLE_WITH_REFERENCES_KEY, name],
    queryFn: async (): Promise<TableInfo[]> => {
      const [table] = (await graphqlRequest(tablesNamedQuery, { names: [name] })).tablesNamed;
      if (!table) return [];
      if (table.references.length === 0) return [table];
      const references = await graphqlRequest(tablesNamedQuery, { names: table.references });
      return [table, ...references.tablesNamed];
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
