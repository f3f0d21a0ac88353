import { queryOptions, useQuery } from '@tanstack/react-query';
import { fallbackRefreshMs } from '../../live/fallbackRefreshMs';
import { useLiveStatus } from '../../live/useLiveStatus';

/** The key every table's rows revision shares: what a reconnection makes out of date. */
export const ROWS_KEY = ['rows'] as const;

export const rowsRevisionOptions = (table: string) =>
  queryOptions({
    queryKey: [...ROWS_KEY, table],
    queryFn: () => Date.now(),
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
  return data ?? 0;
}
