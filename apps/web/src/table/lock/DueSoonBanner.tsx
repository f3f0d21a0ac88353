import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/useFormatters';
import { useLockEvents } from '../../live/useLockEvents';

interface DueSoonBannerProps {
  table: string;
  user: string;
  /** The user holds the table (whole or a row scope): once they no longer do, the warning goes. */
  holds: boolean;
}

interface DueSoon {
  request: string;
  /** The request's time (ISO): the event's `reason`. */
  effectiveAt: string;
}

const SCHEDULER_PREFIX = 'schedule:';

/**
 * A scheduled change request of the table is due soon and the user still holds it: the
 * scheduler said so (a `request_due_soon` event naming the user). Release it by then.
 */
export function DueSoonBanner({ table, user, holds }: DueSoonBannerProps) {
  const { t } = useTranslation();
  const format = useFormatters();
  const [dueSoon, setDueSoon] = useState<DueSoon | null>(null);
  useLockEvents((event) => {
    if (event.action !== 'request_due_soon' || event.table !== table || event.editor !== user) {
      return;
    }
    if (!event.reason || !event.actor.startsWith(SCHEDULER_PREFIX)) return;
    setDueSoon({ request: event.actor.slice(SCHEDULER_PREFIX.length), effectiveAt: event.reason });
  });
  if (!dueSoon || !holds) return null;
  return (
    <div className="banner banner-warning" data-testid="due-soon-warning">
      <div>
        <strong role="alert">
          {t('dueSoon.title', { table, time: format.dateTime(dueSoon.effectiveAt) })}
        </strong>
        <p>{t('dueSoon.body', { request: dueSoon.request })}</p>
      </div>
      <div className="banner-actions">
        <button type="button" className="button small" onClick={() => setDueSoon(null)}>
          {t('dueSoon.dismiss')}
        </button>
      </div>
    </div>
  );
}
