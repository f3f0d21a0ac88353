import type { QueryKey } from '@tanstack/react-query';
import { LOCK_EVENTS_KEY } from '../admin/adminQueries';
import type { LockEvent } from '../live/liveContext';
import { rowsRevisionOptions } from '../table/grid/useRowsRevision';

/**
 * What an announced event makes out of date besides the lock states (those are patched from
 * the event: createTableCacheUpdates): the audit history, and after a save the saved table's
 * rows.
 */
export function staleQueriesAfter(event: LockEvent): QueryKey[] {
  const stale: QueryKey[] = [LOCK_EVENTS_KEY];
  if (event.action === 'save') stale.push(rowsRevisionOptions(event.table).queryKey);
  return stale;
}
