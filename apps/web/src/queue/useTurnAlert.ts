import { useEffect, useEffectEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { showTurnNotification } from './turnNotification';

/**
 * While mounted, makes sure a user who looked away learns that their turn has come: the tab's
 * title says so, and a browser notification does when the tab is in the background.
 */
export function useTurnAlert(table: string): void {
  const { t } = useTranslation();
  const alert = useEffectEvent(() => {
    const title = document.title;
    document.title = t('queue.tabTitle', { title });
    const closeNotification =
      document.visibilityState === 'hidden'
        ? showTurnNotification(
            t('queue.notificationTitle', { table }),
            t('queue.notificationBody', { table }),
            `tablelock-turn-${table}`,
          )
        : () => {};
    return () => {
      document.title = title;
      closeNotification();
    };
  });
  useEffect(() => alert(), []);
}
