import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { type Formatters, useFormatters } from '../../i18n/useFormatters';
import { type LockLoss, releasedForInactivity } from './lockLoss';

interface LockLostBannerProps {
  table: string;
  unsaved: number;
  /** How the lock ended, when known (null: it was only seen to be gone). */
  loss: LockLoss | null;
  /** The signed-in user: a take-over by them was their own, from another tab. */
  user: string;
  canStartAgain: boolean;
  busy: boolean;
  onStartAgain: () => void;
  onStop: () => void;
}

/** The lock ended under the user: who ended it and why, and that their edits are still here. */
export function LockLostBanner(props: LockLostBannerProps) {
  const { t } = useTranslation();
  const format = useFormatters();
  // Inactivity is told in the user's words below, not as the history's bare "idle".
  const reason =
    props.loss && 'event' in props.loss && !releasedForInactivity(props.loss)
      ? props.loss.event.reason
      : null;
  return (
    <div className="banner banner-error lock-lost" role="alert" data-testid="lock-lost">
      <div>
        <strong>{t('lockLost.title', { table: props.table })}</strong>
        {props.loss && (
          <p data-testid="lock-lost-cause">{cause(props.loss, props.user, t, format)}</p>
        )}
        {reason && (
          <p className="quoted-reason" data-testid="lock-lost-reason">
            {t('common.reason', { reason })}
          </p>
        )}
        <p>{t('lockLost.body', { count: props.unsaved })}</p>
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

/** Who ended the lock, how and when, in the user's language. */
function cause(loss: LockLoss, user: string, t: TFunction, format: Formatters): string {
  // Learnt from a refused request: the server's own words are all there is.
  if ('message' in loss) return loss.message;
  const { action, actor, at } = loss.event;
  const time = format.time(at);
  switch (action) {
    case 'force_release':
      return t('lockLost.forceReleased', { actor, time });
    case 'take_over':
      return actor === user
        ? t('lockLost.continuedElsewhere', { time })
        : t('lockLost.takenOver', { actor, time });
    case 'expire':
      return releasedForInactivity(loss)
        ? t('lockLost.idle', { time })
        : t('lockLost.expired', { time });
    default:
      return t('lockLost.released', { time });
  }
}
