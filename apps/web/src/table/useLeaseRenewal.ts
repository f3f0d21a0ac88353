import { useEffect, useRef } from 'react';
import { errorCode, GraphqlRequestError } from '../api/GraphqlRequestError';
import type { TableLock } from './useTableLock';

// A third of the lease: two renewals may fail (a network blip, a throttled background tab)
// before the lock runs out.
const RENEW_EVERY_MS = 40_000;

/**
 * Keeps the lock alive while this page holds it: renews on a timer and as soon as the tab is
 * shown again. A renewal refused with LOCK_LOST (expired, force-released, taken over) is
 * reported with the server's reason; other failures are retried at the next turn.
 */
export function useLeaseRenewal(
  lock: TableLock,
  token: string | null,
  onLost: (reason: string) => void,
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
          lost.current(error.message);
        }
      }
    };
    const timer = setInterval(renew, RENEW_EVERY_MS);
    const onVisible = () => {
      if (document.visibilityState === 'visible') void renew();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      stopped = true;
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [lock, token]);
}
