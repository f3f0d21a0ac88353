import { useEffect } from 'react';
import type { PendingChanges } from '../changes/PendingChanges';
import type { ActivityTracker } from './activityTracker';

// Typing, clicking and the wheel anywhere on the page (dialogs and toolbars included).
const PAGE_ACTIVITY = ['keydown', 'pointerdown', 'wheel'] as const;
// Scrolling counts in the grid only: other scrolls may be the page's own doing.
const GRID = '.row-grid';
const LISTENING = { capture: true, passive: true };

/** Feeds `tracker` with the user's activity on this page while it is mounted. */
export function usePageActivity(tracker: ActivityTracker, pending: PendingChanges): void {
  useEffect(() => {
    const onScroll = (event: Event) => {
      if (event.target instanceof Element && event.target.closest(GRID)) tracker.note();
    };
    for (const type of PAGE_ACTIVITY) document.addEventListener(type, tracker.note, LISTENING);
    // Scroll events do not bubble: caught on their way down.
    document.addEventListener('scroll', onScroll, LISTENING);
    const stopEdits = pending.subscribe(tracker.note);
    return () => {
      for (const type of PAGE_ACTIVITY) document.removeEventListener(type, tracker.note, true);
      document.removeEventListener('scroll', onScroll, true);
      stopEdits();
    };
  }, [tracker, pending]);
}
