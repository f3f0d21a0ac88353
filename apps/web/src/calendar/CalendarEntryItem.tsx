import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormatters } from '../i18n/useFormatters';
import { requestStateText } from '../schedule/requestStateText';
import type { CalendarEntry } from './calendarDays';

/** One time of a day: a request (table, author, state) or an edition with its requests. */
export function CalendarEntryItem({ entry }: { entry: CalendarEntry }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const time = <span className="calendar-time">{format.time(entry.at)}</span>;
  if (entry.kind === 'request') {
    const { request } = entry;
    return (
      <li className="calendar-entry" data-testid={`calendar-request-${request.id}`}>
        {time}
        <div className="calendar-what">
          <Link to={`/tables/${encodeURIComponent(request.table)}`}>{request.table}</Link>
          <span>{t('calendar.request', { id: request.id, author: request.author })}</span>
          <span
            className={`status-badge request-${request.state}`}
            data-testid="calendar-request-state"
          >
            {requestStateText(request.state, request.effectiveAt, t)}
          </span>
          {request.comment && <q className="muted">{request.comment}</q>}
        </div>
      </li>
    );
  }
  const { edition } = entry;
  return (
    <li className="calendar-entry" data-testid={`calendar-edition-${edition.id}`}>
      {time}
      <div>
        <p className="calendar-what">
          <strong>{t('calendar.edition', { name: edition.name })}</strong>
          <span className="muted">{t('calendar.createdBy', { who: edition.createdBy })}</span>
          <span className={`status-badge request-${edition.state}`}>
            {requestStateText(edition.state, edition.effectiveAt, t)}
          </span>
        </p>
        {edition.requests.length === 0 ? (
          <p className="muted">{t('calendar.editionEmpty')}</p>
        ) : (
          <ul>
            {edition.requests.map((request) => (
              <li key={request.id}>
                <Link to={`/tables/${encodeURIComponent(request.table)}`}>{request.table}</Link>{' '}
                {t('calendar.request', { id: request.id, author: request.author })}
              </li>
            ))}
          </ul>
        )}
      </div>
    </li>
  );
}
