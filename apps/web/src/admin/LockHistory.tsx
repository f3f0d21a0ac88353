import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { graphqlRequest } from '../api/graphqlRequest';
import { LOCK_EVENTS_QUERY_KEY } from '../api/queryKeys';
import { useFormatters } from '../i18n/useFormatters';
import { fallbackRefreshMs } from '../live/fallbackRefreshMs';
import { useLiveStatus } from '../live/useLiveStatus';
import { describeError } from '../ui/describeError';
import { Pager } from '../ui/Pager';
import { useDebouncedValue } from '../ui/useDebouncedValue';
import { lockEventsQuery } from './adminOperations';
import {
  type HistoryFilters,
  readHistoryFilters,
  toLockEventFilter,
  writeHistoryFilters,
} from './historyFilters';
import { LockHistoryFilters } from './LockHistoryFilters';

const PAGE_SIZE = 20;
const TYPING_PAUSE_MS = 300;

/**
 * The audit history: every acquire, release, expiry, force release, take-over, refused attempt
 * and save, newest first, filtered and paged on the server. Live updates refresh it as events
 * happen.
 */
export function LockHistory({ tableNames }: { tableNames: readonly string[] }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const live = useLiveStatus();
  const [params, setParams] = useSearchParams();
  const filters = readHistoryFilters(params);
  const user = useDebouncedValue(filters.user, TYPING_PAUSE_MS);
  const variables = {
    filter: toLockEventFilter({ ...filters, user }),
    offset: (filters.page - 1) * PAGE_SIZE,
    limit: PAGE_SIZE,
  };
  const history = useQuery({
    queryKey: [...LOCK_EVENTS_QUERY_KEY, variables],
    queryFn: async () => (await graphqlRequest(lockEventsQuery, variables)).lockEvents,
    // A new filter or page keeps the rows shown until its answer arrives: no flicker.
    placeholderData: keepPreviousData,
    refetchInterval: fallbackRefreshMs(live),
  });
  const show = (next: HistoryFilters) =>
    setParams(writeHistoryFilters(next), { replace: true, preventScrollReset: true });
  const events = history.data?.events ?? [];

  return (
    <section className="page-section" aria-labelledby="history-title">
      <div>
        <h2 id="history-title">{t('history.title')}</h2>
        <p className="muted">{t('history.subtitle')}</p>
      </div>
      {/* Another filter starts again at the newest events. */}
      <LockHistoryFilters
        filters={filters}
        tableNames={tableNames}
        onChange={(change) => show({ ...filters, ...change, page: 1 })}
      />
      <div className="card table-card">
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
            {events.map((event) => (
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
                    {event.reason && <q>{event.reason}</q>}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {history.isError && (
          <p className="banner banner-error" role="alert">
            {describeError(history.error, t)}
          </p>
        )}
        {history.isSuccess && events.length === 0 && (
          <p className="empty-state">{t('history.empty')}</p>
        )}
      </div>
      <Pager
        page={filters.page}
        pageSize={PAGE_SIZE}
        total={history.data?.total ?? 0}
        onPage={(page) => show({ ...filters, page })}
      />
    </section>
  );
}
