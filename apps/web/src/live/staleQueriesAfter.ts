import type { QueryKey } from '@tanstack/react-query';
import { LOCK_EVENTS_QUERY_KEY, rowsQueryKey, TABLES_QUERY_KEY } from '../api/queryKeys';
import type { LockEvent } from './liveContext';

/**
 * What an announced event makes out of date: the lock states (every page shows them), the
 * audit history, and after a save the saved table's rows.
 */
export function staleQueriesAfter(event: LockEvent): QueryKey[] {
  const stale: QueryKey[] = [TABLES_QUERY_KEY, LOCK_EVENTS_QUERY_KEY];
  if (event.action === 'save') stale.push(rowsQueryKey(event.table));
  return stale;
}
