import { useEffect, useRef } from 'react';
import { errorCode, GraphqlRequestError } from '../api/GraphqlRequestError';
import { setBackgroundInterval } from '../ui/setBackgroundInterval';
import type { TableLock } from './useTableLock';

// A third of the lease (useTableLock): two renewals may fail (a network blip) before the lock
// runs out.
const RENEW_EVERY_MS = 10_000;

/**
 * Keeps the lock alive while this page holds it: renews on a timer that keeps running in a
 * background tab, and as soon as the tab is shown again. Once the page is closed the renewals
 * stop and the lease runs out. A renewal refused with LOCK_LOST (expired, force-released,
 * taken over) is reported with the server's reason; other failures are retried at the next turn.
 */
export function useLeaseRenewal(
  lock: TableLock,
  token: string | null,
  onLost: (token: string, reason: string) => void,
): void {
  const lost = useRef(onLost);
  lost.current = onLost;
  useEffect(() => {
    if (!token) return;
    let stopped = false;
    const renew = async () => {
      try {
        await lock.renew(token);
      } catch (error) {
        if (!stopped && errorCode(error) === 'LOCK_LOST' && error instanceof GraphqlRequestError) {
          lost.current(token, error.message);
        }
      }
    };
    const stopTimer = setBackgroundInterval(() => void renew(), RENEW_EVERY_MS);
    const onVisible = () => {
      if (document.visibilityState === 'visible') void renew();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      stopped = true;
      stopTimer();
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [lock, token]);
}
