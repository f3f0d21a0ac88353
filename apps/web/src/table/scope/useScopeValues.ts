import { useQueries, useQuery } from '@tanstack/react-query';
import type { RowFilter } from '../../generated/graphql';
import { proposeScope, type ScopeValue, scopeValueOf } from './proposeScope';

/** The scope the grid's filter proposes: its values of the row-lock column (none unfiltered). */
export function useScopeProposal(table: string, column: string, filter: readonly RowFilter[]) {
  return useQuery({
    queryKey: ['scopeProposal', table, column, filter],
    queryFn: () => proposeScope(table, column, filter),
    enabled: filter.length > 0,
    // Read once per opening of the dialog: the user adjusts what it proposed.
    staleTime: 0,
    gcTime: 0,
  });
}

/** Each value's label and rows, as they come in (undefined until read). */
export function useScopeValues(
  table: string,
  column: string,
  values: readonly string[],
): (ScopeValue | undefined)[] {
  return useQueries({
    queries: values.map((value) => ({
      queryKey: ['scopeValue', table, column, value],
      queryFn: () => scopeValueOf(table, column, value),
    })),
  }).map((result) => result.data);
}
