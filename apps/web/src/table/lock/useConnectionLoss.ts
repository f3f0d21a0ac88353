import { useSyncExternalStore } from 'react';
import { useLiveStatus } from '../../live/useLiveStatus';
import { useBrowserOnline } from '../../ui/useBrowserOnline';
import type { TableLock } from './useTableLock';

/**
 * While this page edits under a lock and the API is out of reach (no network, the live
 * connection down, or the last renewal unanswered): when the lease ends at the latest. Null
 * while all is well.
 */
export function useConnectionLoss(
  lock: TableLock,
  editing: boolean,
): { leaseEndsAt: number } | null {
  const online = useBrowserOnline();
  const live = useLiveStatus();
  const { leaseEndsAt, unreachable } = useSyncExternalStore(
    lock.connection.subscribe,
    lock.connection.getSnapshot,
  );
  const lost = !online || live === 'offline' || unreachable;
  return editing && lost && leaseEndsAt !== null ? { leaseEndsAt } : null;
}
