import { useTranslation } from 'react-i18next';
import { useNow } from '../../ui/useNow';

const COUNTDOWN_TICK_MS = 1000;

/**
 * The API cannot be reached while this page holds the lock: the lease runs out unless a renewal
 * gets through, and then others may edit the table. The unsaved changes stay on the page.
 */
export function ConnectionLostBanner({ leaseEndsAt }: { leaseEndsAt: number }) {
  const { t } = useTranslation();
  const now = useNow(COUNTDOWN_TICK_MS);
  const seconds = Math.max(0, Math.ceil((leaseEndsAt - now) / 1000));
  return (
    <div className="banner banner-warning" data-testid="connection-lost">
      <div>
        {/* Announced once; the countdown below would be too, every second, inside the alert. */}
        <strong role="alert">{t('connectionLost.title')}</strong>
        <p data-testid="connection-lost-countdown">
          {seconds > 0 ? t('connectionLost.endsIn', { count: seconds }) : t('connectionLost.ended')}
        </p>
      </div>
    </div>
  );
}
