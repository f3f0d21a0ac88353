import { useTranslation } from 'react-i18next';
import type { QueueWait } from './queueWait';
import { YourTurnPrompt } from './YourTurnPrompt';

interface QueueBannerProps {
  table: string;
  wait: QueueWait;
  busy: boolean;
  /** Starts editing, as the page's own Start editing does. */
  onStart: () => void;
  /** Leaves the line (or, after the turn ran out, puts the message away). */
  onLeave: () => void;
}

/** The user's place in the line for the table: waiting, their turn, or a turn that ran out. */
export function QueueBanner({ table, wait, busy, onStart, onLeave }: QueueBannerProps) {
  const { t } = useTranslation();
  if (wait.kind === 'idle') return null;
  if (wait.kind === 'yourTurn') {
    return (
      <YourTurnPrompt
        table={table}
        reservedUntil={wait.reservedUntil}
        busy={busy}
        onStart={onStart}
        onNotNow={onLeave}
      />
    );
  }
  if (wait.kind === 'expired') {
    return (
      <div className="banner banner-info" role="status" data-testid="queue-expired">
        <p>{t('queue.expired', { table })}</p>
        <div className="banner-actions">
          <button type="button" className="button subtle small" onClick={onLeave}>
            {t('common.dismiss')}
          </button>
        </div>
      </div>
    );
  }
  let place: string;
  if (wait.kind === 'joining') place = t('queue.joining', { table });
  else if (wait.ahead.length === 0) place = t('queue.placeFirst', { table });
  else place = t('queue.place', { position: wait.position, editors: wait.ahead.join(', ') });
  return (
    <div className="banner banner-info" data-testid="queue-place">
      <div role="status">
        <strong>{place}</strong>
        <p>{t('queue.placeHint')}</p>
      </div>
      <div className="banner-actions">
        <button type="button" className="button small" onClick={onLeave}>
          {t('queue.leave')}
        </button>
      </div>
    </div>
  );
}
