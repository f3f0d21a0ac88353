import type { QueryKey } from '@tanstack/react-query';
import { LOCK_EVENTS_KEY } from '../admin/adminQueries';
import type { LockEvent } from '../live/liveContext';
import { CHANGE_REQUESTS_KEY } from '../requests/changeRequestQueries';
import { SCHEDULE_KEY } from '../schedule/scheduleQueries';
import { rowsRevisionOptions } from '../table/grid/useRowsRevision';

/**
 * What an announced event makes out of date besides the lock states (those are patched from
 * the event: createTableCacheUpdates): the audit history, after a save the saved table's
 * rows, and after a change request's step the requests and the editions (the calendar).
 */
export function staleQueriesAfter(event: LockEvent): QueryKey[] {
  const stale: QueryKey[] = [LOCK_EVENTS_KEY];
  const saved = tableSavedBy(event);
  if (saved !== null) stale.push(rowsRevisionOptions(saved).queryKey);
  // A request's step, or its lock ended under it (a force release rejects it).
  if (event.action.startsWith('request_') || event.action === 'force_release') {
    stale.push(CHANGE_REQUESTS_KEY, SCHEDULE_KEY);
  }
  return stale;
}

/** The table whose rows an announced event changed (a save), else null. */
export const tableSavedBy = (event: LockEvent): string | null =>
  event.action === 'save' ? event.table : null;
