import { useEffect, useEffectEvent } from 'react';

/** Ctrl+S (⌘S) saves while `enabled`, instead of the browser saving the page. */
export function useSaveShortcut(enabled: boolean, save: () => void): void {
  const onSave = useEffectEvent(save);
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
        event.preventDefault();
        onSave();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [enabled]);
}
