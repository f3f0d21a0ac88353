import { queryOptions, useQuery } from '@tanstack/react-query';
import { fallbackRefreshMs } from '../../live/fallbackRefreshMs';
import { useLiveStatus } from '../../live/useLiveStatus';
import { ROWS_KEY } from './rowsKey';

/**
 * A revision is the time from which the grid reads its rows: known at once (a revision that
 * arrived after the grid's first read would reload the rows it was still reading).
 */
export const rowsRevisionOptions = (table: string) =>
  queryOptions({
    queryKey: [...ROWS_KEY, table],
    queryFn: () => Date.now(),
    initialData: () => Date.now(),
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });

/**
 * Stands in TanStack Query for the rows the grid shows, which live in AG Grid's own block
 * cache: invalidating `rowsRevisionOptions(table)` (a save announced live, a reconnect) or the
 * fallback poll gives a new revision, and the grid reloads its blocks.
 */
export function useRowsRevision(table: string): number {
  const live = useLiveStatus();
  const { data } = useQuery({
    ...rowsRevisionOptions(table),
    refetchInterval: fallbackRefreshMs(live),
  });
  return data;
}
