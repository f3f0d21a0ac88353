import { useTranslation } from 'react-i18next';

interface LockLostBannerProps {
  table: string;
  unsaved: number;
  /** The server's account of how the lock ended, when it gave one. */
  reason: string | null;
  canStartAgain: boolean;
  busy: boolean;
  onStartAgain: () => void;
  onStop: () => void;
}

/** The lock ended under the user: nothing more can be saved, but the edits are still here. */
export function LockLostBanner(props: LockLostBannerProps) {
  const { t } = useTranslation();
  return (
    <div className="banner banner-error" role="alert" data-testid="lock-lost">
      <div>
        <strong>{t('lockLost.title', { table: props.table })}</strong>
        <p>{t('lockLost.body', { count: props.unsaved })}</p>
        {props.reason && <p>{props.reason}</p>}
      </div>
      <div className="banner-actions">
        <button
          type="button"
          className="button primary small"
          disabled={props.busy || !props.canStartAgain}
          onClick={props.onStartAgain}
        >
          {t('lockLost.startAgain')}
        </button>
        <button
          type="button"
          className="button subtle small"
          disabled={props.busy}
          onClick={props.onStop}
        >
          {t('lockLost.stop')}
        </button>
      </div>
    </div>
  );
}
