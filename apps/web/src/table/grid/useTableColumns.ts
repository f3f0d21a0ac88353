import { queryOptions, useQuery } from '@tanstack/react-query';
import { graphqlRequest } from '../../api/graphqlRequest';
import type { TableColumnsQuery } from '../../generated/graphql';
import { tableColumnsQuery } from './rowOperations';

export type TableColumn = TableColumnsQuery['rows']['columns'][number];

export const tableColumnsOptions = (table: string) =>
  queryOptions({
    queryKey: ['columns', table],
    queryFn: async () => (await graphqlRequest(tableColumnsQuery, { table })).rows,
    // Columns change only with a schema migration.
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });

/** A table's columns from the catalog, and whether its rows can be named (and so edited). */
export function useTableColumns(table: string) {
  return useQuery(tableColumnsOptions(table));
}
