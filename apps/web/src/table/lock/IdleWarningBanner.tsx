import { useTranslation } from 'react-i18next';
import { useNow } from '../../ui/useNow';

interface IdleWarningBannerProps {
  table: string;
  /** When the idle limit ends the lock (page clock). */
  releaseAt: number;
  /** The limit has passed: the server is ending the lock. */
  ending: boolean;
  onKeepEditing: () => void;
}

const COUNTDOWN_TICK_MS = 1000;

/** The user has shown no activity for a while: the lock ends at the idle limit unless they go on. */
export function IdleWarningBanner({
  table,
  releaseAt,
  ending,
  onKeepEditing,
}: IdleWarningBannerProps) {
  const { t } = useTranslation();
  const now = useNow(COUNTDOWN_TICK_MS);
  return (
    <div className="banner banner-warning" data-testid="idle-warning">
      <div>
        {/* Announced once; the countdown below would be too, every second, inside the alert. */}
        <strong role="alert">{t('idle.title', { table })}</strong>
        <p data-testid="idle-countdown">
          {ending ? t('idle.ending') : t('idle.countdown', { time: countdown(releaseAt - now) })}
        </p>
      </div>
      <div className="banner-actions">
        <button type="button" className="button primary small" onClick={onKeepEditing}>
          {t('idle.keepEditing')}
        </button>
      </div>
    </div>
  );
}

/** "1:05": minutes and seconds left, never below zero. */
function countdown(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
