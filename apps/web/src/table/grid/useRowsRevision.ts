import { useQuery } from '@tanstack/react-query';
import { rowsQueryKey } from '../../api/queryKeys';
import { fallbackRefreshMs } from '../../live/fallbackRefreshMs';
import { useLiveStatus } from '../../live/useLiveStatus';

/**
 * Stands in TanStack Query for the rows the grid shows, which live in AG Grid's own block
 * cache: invalidating `rowsQueryKey(table)` (a save announced live, a reconnect) or the
 * fallback poll gives a new revision, and the grid reloads its blocks.
 */
export function useRowsRevision(table: string): number {
  const live = useLiveStatus();
  const { data } = useQuery({
    queryKey: rowsQueryKey(table),
    queryFn: () => Date.now(),
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    refetchInterval: fallbackRefreshMs(live),
  });
  return data ?? 0;
}
