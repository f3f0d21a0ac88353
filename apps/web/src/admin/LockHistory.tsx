import { useTranslation } from 'react-i18next';
import { useFormatters } from '../i18n/useFormatters';
import { fallbackRefreshMs } from '../live/fallbackRefreshMs';
import { useLiveStatus } from '../live/useLiveStatus';
import { lockEventsOptions } from './adminQueries';
import { HistoryReason } from './HistoryReason';
import { HistorySection } from './HistorySection';
import { LOCK_ACTIONS, toLockEventFilter } from './historyFilters';
import { useHistoryPage } from './useHistoryPage';

/**
 * The audit history: every acquire, release, expiry, force release, take-over, refused attempt
 * and save, newest first, filtered and paged on the server. Live updates refresh it as events
 * happen.
 */
export function LockHistory({ tableNames }: { tableNames: readonly string[] }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const live = useLiveStatus();
  const history = useHistoryPage({
    pageQuery: lockEventsOptions,
    actions: LOCK_ACTIONS,
    toFilter: toLockEventFilter,
    refetchInterval: fallbackRefreshMs(live),
  });

  return (
    <HistorySection
      title={t('history.title')}
      subtitle={t('history.subtitle')}
      history={history}
      filterBar={{
        actions: LOCK_ACTIONS,
        actionLabel: (action) => t(`lockActions.${action}`),
        userPlaceholder: t('history.filters.userPlaceholder'),
        tableNames,
      }}
    >
      <table className="data-table history-table" data-testid="lock-history">
        <thead>
          <tr>
            <th scope="col">{t('history.columns.at')}</th>
            <th scope="col">{t('history.columns.action')}</th>
            <th scope="col">{t('history.columns.table')}</th>
            <th scope="col">{t('history.columns.actor')}</th>
            <th scope="col">{t('history.columns.editor')}</th>
            <th scope="col" className="numeric">
              {t('history.columns.token')}
            </th>
            <th scope="col">{t('history.columns.details')}</th>
          </tr>
        </thead>
        <tbody>
          {history.query.data?.events.map((event) => (
            <tr key={event.id} data-testid="history-row" data-action={event.action}>
              <td className="nowrap">
                <time dateTime={event.at}>{format.dateTimeSeconds(event.at)}</time>
              </td>
              <td>
                <span className={`action-badge action-${event.action}`}>
                  {t(`lockActions.${event.action}`)}
                </span>
              </td>
              <td className="table-name">{event.table}</td>
              <td>{event.actor === 'system' ? t('history.system') : event.actor}</td>
              <td>{event.editor}</td>
              <td className="numeric muted">{event.token}</td>
              <td>
                <div className="history-details">
                  {event.rowsChanged !== null && (
                    <span>{t('history.rowsChanged', { count: event.rowsChanged })}</span>
                  )}
                  {event.previousEditor && (
                    <span>{t('history.tookOverFrom', { name: event.previousEditor })}</span>
                  )}
                  <HistoryReason event={event} />
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </HistorySection>
  );
}
