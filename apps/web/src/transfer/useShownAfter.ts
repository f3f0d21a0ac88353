import { useEffect, useState } from 'react';

/**
 * True once `active` has lasted `delayMs`, false as soon as it ends: what is over within a
 * moment never flashes a progress bar.
 */
export function useShownAfter(active: boolean, delayMs: number): boolean {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    setShown(false);
    if (!active) return;
    const timer = setTimeout(() => setShown(true), delayMs);
    return () => clearTimeout(timer);
  }, [active, delayMs]);
  return active && shown;
}
