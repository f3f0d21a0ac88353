import { useCallback, useEffect, useRef } from 'react';
import { errorCode, GraphqlRequestError } from '../../api/GraphqlRequestError';
import { setBackgroundInterval } from '../../ui/setBackgroundInterval';
import type { ActivityTracker } from './activityTracker';
import type { IdleDeadline } from './idleDeadline';
import type { TableLock } from './useTableLock';

// Renewals come every third of the lease: two may fail (a network blip) before the lock runs out.
const RENEWALS_PER_LEASE = 3;

export interface LeaseRenewalHandlers {
  /** A renewal went through: the idle deadline it set (null: the lock does not go idle). */
  onRenewed(token: string, deadline: IdleDeadline | null): void;
  /** A renewal was refused with LOCK_LOST, with the server's reason. */
  onLost(token: string, reason: string): void;
}

/**
 * Keeps the lock alive while this page holds it: renews on a timer that keeps running in a
 * background tab, and as soon as the tab is shown again. Each renewal tells the
 * server whether the user was active since the one before (`activity`): a user who is not ends
 * up losing the lock at the idle limit. Once the page is closed the renewals stop and the lease
 * runs out. A renewal refused with LOCK_LOST (expired, idle, force-released, taken over) is
 * reported with the server's reason; other failures are retried at the next turn. Answers a
 * function that renews now, unless a renewal is on its way (Keep editing).
 */
export function useLeaseRenewal(
  lock: TableLock,
  token: string | null,
  activity: ActivityTracker,
  handlers: LeaseRenewalHandlers,
): () => void {
  const latest = useRef(handlers);
  latest.current = handlers;
  const renewNow = useRef<() => void>(() => {});
  useEffect(() => {
    if (!token) return;
    let stopped = false;
    let inFlight = false;
    const renew = async () => {
      const active = activity.take();
      inFlight = true;
      try {
        const deadline = await lock.renew(token, active);
        if (!stopped) latest.current.onRenewed(token, deadline);
      } catch (error) {
        // The server never heard of it: the next renewal tells it.
        if (active) activity.unreported();
        if (!stopped && errorCode(error) === 'LOCK_LOST' && error instanceof GraphqlRequestError) {
          latest.current.onLost(token, error.message);
        }
      } finally {
        inFlight = false;
      }
    };
    // One at a time: activity while one is on its way is told by the next.
    renewNow.current = () => {
      if (!inFlight) void renew();
    };
    const stopTimer = setBackgroundInterval(
      () => void renew(),
      (lock.leaseSeconds * 1000) / RENEWALS_PER_LEASE,
    );
    const onVisible = () => {
      if (document.visibilityState === 'visible') void renew();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      stopped = true;
      renewNow.current = () => {};
      stopTimer();
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [lock, token, activity]);
  return useCallback(() => renewNow.current(), []);
}
