import { useEffect } from 'react';
import type { ActivityTracker } from './activityTracker';
import type { EditSessionStore } from './EditSessionStore';
import { type IdleDeadline, idlePhaseAt } from './idleDeadline';

// How often the idle clock is looked at: the countdown moves by the second.
const IDLE_TICK_MS = 1000;

/**
 * Moves the idle phase of acquisition `token` (while this tab renews it) with the clock: the
 * countdown from the deadline's warning, then the limit. At the limit one more renewal
 * (inactive) lets the server end the lock at once and say so, rather than at its next sweep.
 * Activity during the countdown renews at once, so the countdown ends as soon as the server has
 * heard of it.
 */
export function useIdleClock(
  store: EditSessionStore,
  token: string | null,
  deadline: IdleDeadline | null,
  activity: ActivityTracker,
  renewNow: () => void,
): void {
  useEffect(() => {
    if (!token) return;
    const tick = () => {
      const phase = idlePhaseAt(deadline, Date.now());
      const before = store.getSnapshot();
      store.dispatch({ type: 'idle', token, phase });
      if (phase === 'ending' && before.kind === 'editing' && before.idle !== 'ending') renewNow();
    };
    const timer = setInterval(tick, IDLE_TICK_MS);
    return () => clearInterval(timer);
  }, [store, token, deadline, renewNow]);

  useEffect(
    () =>
      activity.subscribe(() => {
        const current = store.getSnapshot();
        if (current.kind === 'editing' && current.idle !== 'active') renewNow();
      }),
    [activity, store, renewNow],
  );
}
