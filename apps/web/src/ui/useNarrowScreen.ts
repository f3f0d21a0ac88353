import { useSyncExternalStore } from 'react';

/** The width below which the layout is a phone's (narrowScreens.css has the same bound). */
const NARROW = '(max-width: 760px)';

const subscribe = (onChange: () => void) => {
  const query = window.matchMedia(NARROW);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
};

/**
 * Whether the screen is a phone's: what CSS alone cannot change (a grid's columns, a toolbar's
 * buttons folded into a menu) follows this, and changes as the window is resized.
 */
export function useNarrowScreen(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(NARROW).matches);
}
