import type { QueryKey } from '@tanstack/react-query';
import { LOCK_EVENTS_QUERY_KEY, rowsQueryKey } from '../api/queryKeys';
import type { LockEvent } from '../live/liveContext';

/**
 * What an announced event makes out of date besides the lock states (those are patched from
 * the event: createTableCacheUpdates): the audit history, and after a save the saved table's
 * rows.
 */
export function staleQueriesAfter(event: LockEvent): QueryKey[] {
  const stale: QueryKey[] = [LOCK_EVENTS_QUERY_KEY];
  if (event.action === 'save') stale.push(rowsQueryKey(event.table));
  return stale;
}
