import './calendar.css';
import '../schedule/schedule.css';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useFormatters } from '../i18n/useFormatters';
import { calendarRequestsOptions, editionsOptions } from '../schedule/scheduleQueries';
import { tablesOptions } from '../tables/useTables';
import { describeError } from '../ui/describeError';
import { LoadingState } from '../ui/LoadingState';
import { usePageTitle } from '../ui/usePageTitle';
import { CalendarEntryItem } from './CalendarEntryItem';
import { calendarDays } from './calendarDays';

/**
 * What takes effect when: the requests scheduled for a date and the editions, by day. Live: a
 * request's step (scheduled, moved, applied, failed) makes both lists out of date (see
 * staleQueriesAfter). The filters are in the URL.
 */
export function CalendarPage() {
  const { t } = useTranslation();
  const format = useFormatters();
  usePageTitle(t('calendar.title'));
  const [params, setParams] = useSearchParams();
  const table = params.get('table');
  const editionId = params.get('edition');
  const requests = useQuery(calendarRequestsOptions(table));
  const editions = useQuery(editionsOptions);
  const tables = useQuery(tablesOptions).data ?? [];
  const error = requests.error ?? editions.error;
  const days =
    requests.data && editions.data
      ? calendarDays(requests.data, editions.data, { table, editionId })
      : null;
  const choose = (name: string, value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === '') next.delete(name);
        else next.set(name, value);
        return next;
      },
      { replace: true },
    );
  return (
    <section className="page calendar-page">
      <div className="page-header">
        <div className="page-title">
          <h1>{t('calendar.title')}</h1>
          <p className="muted">{t('calendar.subtitle')}</p>
        </div>
      </div>
      <div className="filter-bar calendar-filters">
        <label className="field">
          {t('calendar.table')}
          <select value={table ?? ''} onChange={(event) => choose('table', event.target.value)}>
            <option value="">{t('calendar.allTables')}</option>
            {tables.map((info) => (
              <option key={info.name} value={info.name}>
                {info.name}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          {t('calendar.editionFilter')}
          <select
            value={editionId ?? ''}
            onChange={(event) => choose('edition', event.target.value)}
          >
            <option value="">{t('calendar.allEditions')}</option>
            {(editions.data ?? []).map((edition) => (
              <option key={edition.id} value={edition.id}>
                {edition.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      {error && <p className="banner banner-error">{describeError(error, t)}</p>}
      {!days && !error && <LoadingState />}
      {days?.length === 0 && <p className="muted">{t('calendar.none')}</p>}
      {days && days.length > 0 && (
        <ol className="calendar-days" data-testid="calendar">
          {days.map(({ day, entries }) => (
            <li key={day} className="calendar-day" data-testid={`calendar-day-${day}`}>
              <h2>{format.date(day)}</h2>
              <ul className="calendar-entries">
                {entries.map((entry) => (
                  <CalendarEntryItem
                    key={`${entry.kind}-${entry.kind === 'request' ? entry.request.id : entry.edition.id}`}
                    entry={entry}
                  />
                ))}
              </ul>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
