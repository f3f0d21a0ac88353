import { useEffect } from 'react';

const APP_NAME = 'tablelock';

/**
 * Names the page in the browser tab (and its history), marked `•` while it holds unsaved
 * changes: among many tabs, the one with the work not yet saved is found at a glance.
 */
export function usePageTitle(page: string, unsaved = false): void {
  useEffect(() => {
    document.title = `${unsaved ? '• ' : ''}${page} — ${APP_NAME}`;
    return () => {
      document.title = APP_NAME;
    };
  }, [page, unsaved]);
}
