import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';
import { ConfirmDialog } from '../../ui/ConfirmDialog';

/** Asks before leaving the page (in the app or the browser) while edits are unsaved. */
export function UnsavedChangesGuard({ unsaved }: { unsaved: number }) {
  const { t } = useTranslation();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      unsaved > 0 && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (unsaved === 0) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsaved]);
  return (
    <ConfirmDialog
      open={blocker.state === 'blocked'}
      title={t('unsaved.leaveTitle')}
      confirmLabel={t('unsaved.leave')}
      cancelLabel={t('unsaved.stay')}
      tone="danger"
      onConfirm={() => blocker.proceed?.()}
      onCancel={() => blocker.reset?.()}
    >
      <p>{t('unsaved.leaveMessage', { count: unsaved })}</p>
    </ConfirmDialog>
  );
}
