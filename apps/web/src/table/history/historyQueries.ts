import { infiniteQueryOptions } from '@tanstack/react-query';
import { graphqlRequest } from '../../api/graphqlRequest';
import { changeRowsQuery, rowHistoryQuery, tableChangesQuery } from './historyOperations';
import type { ChangeSetFilter, RowValues } from './historyTypes';

const CHANGES_PER_PAGE = 20;
const ROWS_PER_PAGE = 50;

/** A table's changes, newest first, page after page. */
export const tableChangesOptions = (table: string, filter: ChangeSetFilter) =>
  infiniteQueryOptions({
    queryKey: ['tableChanges', table, filter],
    initialPageParam: null as string | null,
    queryFn: async ({ pageParam }) =>
      (
        await graphqlRequest(tableChangesQuery, {
          table,
          filter,
          after: pageParam,
          first: CHANGES_PER_PAGE,
        })
      ).tableChanges,
    getNextPageParam: (page) => page.endCursor,
  });

/** The rows of one change, in the order they were written. */
export const changeRowsOptions = (table: string, id: string) =>
  infiniteQueryOptions({
    queryKey: ['tableChanges', table, 'rows', id],
    initialPageParam: null as string | null,
    queryFn: async ({ pageParam }) =>
      (
        await graphqlRequest(changeRowsQuery, {
          table,
          id,
          after: pageParam,
          first: ROWS_PER_PAGE,
        })
      ).tableChange.rows,
    getNextPageParam: (page) => page.endCursor,
  });

/** One row's changes, newest first. */
export const rowHistoryOptions = (table: string, key: RowValues) =>
  infiniteQueryOptions({
    queryKey: ['tableChanges', table, 'row', key],
    initialPageParam: null as string | null,
    queryFn: async ({ pageParam }) =>
      (
        await graphqlRequest(rowHistoryQuery, {
          table,
          key,
          after: pageParam,
          first: ROWS_PER_PAGE,
        })
      ).rowHistory,
    getNextPageParam: (page) => page.endCursor,
  });

/** Every history query of a table: what a revert or save makes stale. */
export const tableHistoryKey = (table: string) => ['tableChanges', table];
