import { useTranslation } from 'react-i18next';
import { useNow } from '../ui/useNow';
import { secondsLeft } from './queueWait';
import { useTurnAlert } from './useTurnAlert';

interface YourTurnPromptProps {
  table: string;
  /** Until when the table is held for the user. */
  reservedUntil: string | null;
  busy: boolean;
  onStart: () => void;
  onNotNow: () => void;
}

/** The user's turn has come: the table is held for them for a while, to start editing or not. */
export function YourTurnPrompt({
  table,
  reservedUntil,
  busy,
  onStart,
  onNotNow,
}: YourTurnPromptProps) {
  const { t } = useTranslation();
  useTurnAlert(table);
  return (
    <div className="banner banner-turn" data-testid="your-turn">
      <div>
        {/* Announced once; the countdown below would be too, every second, inside the alert. */}
        <strong role="alert">{t('queue.yourTurn', { table })}</strong>
        {reservedUntil && <HeldFor until={reservedUntil} />}
      </div>
      <div className="banner-actions">
        <button type="button" className="button primary small" disabled={busy} onClick={onStart}>
          {t('table.startEditing')}
        </button>
        <button type="button" className="button subtle small" disabled={busy} onClick={onNotNow}>
          {t('queue.notNow')}
        </button>
      </div>
    </div>
  );
}

/** How long the table is still held, counted down by the second. */
function HeldFor({ until }: { until: string }) {
  const { t } = useTranslation();
  const now = useNow(1000);
  return (
    <p data-testid="turn-countdown">{t('queue.heldFor', { count: secondsLeft(until, now) })}</p>
  );
}
