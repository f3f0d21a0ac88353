import { isCancelledError, type QueryClient, queryOptions } from '@tanstack/react-query';
import { graphqlRequest } from '../../api/graphqlRequest';
import type { RowPageQuery, RowPageQueryVariables } from '../../generated/graphql';
import { rowPageQuery } from './rowOperations';
import { ROWS_KEY } from './rowsKey';

// Rows per request: the scrollbar (sized from the total) lets the user jump anywhere in the
// 100,000 rows, and a block of 100 stays quick to read and to render wherever it is.
export const BLOCK_SIZE = 100;

/** A page of rows as the grid reads them, and when it was read (from). */
export interface RowsRead {
  readFrom: number;
  page: RowPageQuery['rows'];
}

const none = (terms: unknown) => terms == null || (Array.isArray(terms) && terms.length === 0);

/** The grid's first read of a table in its own order, unfiltered: what a link to it shows. */
const isFirstRead = (variables: RowPageQueryVariables) =>
  variables.offset === 0 &&
  variables.limit === BLOCK_SIZE &&
  !variables.after &&
  !variables.before &&
  none(variables.sort) &&
  none(variables.filter);

/**
 * A table's first rows, read ahead by the table page's loader while the grid's code arrives,
 * for the grid's first read to take once. Kept briefly: a table page not opened in time (its
 * navigation cancelled) reads anew.
 */
export const firstRowsOptions = (table: string) =>
  queryOptions({
    queryKey: [...ROWS_KEY, table, 'first'],
    queryFn: async (): Promise<RowsRead> => {
      const readFrom = Date.now();
      const variables = { table, sort: [], filter: [], offset: 0, limit: BLOCK_SIZE };
      return { readFrom, page: (await graphqlRequest(rowPageQuery, variables)).rows };
    },
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 30_000,
    retry: false,
  });

/**
 * The rows read ahead for the grid's read of `variables`, if they are those and were not
 * refused or made stale by news (a save announced: dropFirstRows); null to read them anew.
 * Taken once: the entry goes once it has arrived. Dropped while under way, they answer null.
 */
export function takeFirstRows(
  queryClient: QueryClient,
  variables: RowPageQueryVariables,
): Promise<RowsRead | null> | null {
  const options = firstRowsOptions(variables.table);
  const state = queryClient.getQueryState(options.queryKey);
  if (!state || state.isInvalidated || state.status === 'error' || !isFirstRead(variables)) {
    return null;
  }
  const taken = queryClient.fetchQuery(options).catch((error: unknown) => {
    if (isCancelledError(error)) return null;
    throw error;
  });
  // Not while it is under way: removing a query cancels its fetch.
  const drop = () => queryClient.removeQueries({ queryKey: options.queryKey, exact: true });
  void taken.then(drop, drop);
  return taken;
}

/** A save of `table` was announced: rows read ahead of it before may not show it. */
export function dropFirstRows(queryClient: QueryClient, table: string): void {
  queryClient.removeQueries({ queryKey: firstRowsOptions(table).queryKey, exact: true });
}
