import { useTranslation } from 'react-i18next';
import { useLiveStatus } from '../live/useLiveStatus';

/** Whether what the user sees is live: a silent outage would leave them trusting stale locks. */
export function LiveIndicator() {
  const { t } = useTranslation();
  const status = useLiveStatus();
  return (
    <span
      className={`live-indicator live-${status}`}
      role="status"
      data-testid="live-status"
      data-status={status}
      title={status === 'offline' ? t('live.offlineHint') : t('live.liveHint')}
    >
      <span className="live-dot" aria-hidden="true" />
      {t(`live.${status}`)}
    </span>
  );
}
