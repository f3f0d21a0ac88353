import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../ui/describeError';
import { Pager } from '../ui/Pager';
import { HistoryFilterBar } from './HistoryFilterBar';
import type { HistoryPage } from './useHistoryPage';

interface HistorySectionProps<Action extends string, Event extends { id: string }> {
  /** The section's heading, for assistive technology: the tab above shows it. */
  title: string;
  subtitle: string;
  history: HistoryPage<Action, Event>;
  /** What the filter bar offers (see HistoryFilterBar). */
  filterBar: {
    actions: readonly Action[];
    actionLabel: (action: Action) => string;
    userPlaceholder: string;
    tableNames?: readonly string[];
  };
  /** The table of `history`'s events. */
  children: ReactNode;
}

/** An audit history: its filters, a page of its events, and the way through the pages. */
export function HistorySection<Action extends string, Event extends { id: string }>({
  title,
  subtitle,
  history,
  filterBar,
  children,
}: HistorySectionProps<Action, Event>) {
  const { t } = useTranslation();
  const { filters, show, query } = history;
  // While another page loads, the rows shown are the last page's: a cursor taken from them
  // would lead back where the user came from.
  const settled = query.isSuccess && !query.isPlaceholderData;
  const events = query.data?.events ?? [];
  return (
    <section className="page-section" aria-label={title}>
      <p className="muted">{subtitle}</p>
      {/* Another filter starts again at the newest events. */}
      <HistoryFilterBar
        {...filterBar}
        filters={filters}
        onChange={(change) => show({ ...filters, ...change, page: 1, before: '', after: '' })}
      />
      <div className="card table-card">
        {children}
        {query.isError && (
          <p className="banner banner-error" role="alert">
            {describeError(query.error, t)}
          </p>
        )}
        {query.isSuccess && query.data.events.length === 0 && (
          <p className="empty-state">{t('history.empty')}</p>
        )}
      </div>
      <Pager
        page={filters.page}
        pageSize={history.pageSize}
        total={query.data?.total ?? 0}
        totalCapped={query.data?.totalCapped ?? false}
        hasPrevious={settled && query.data.hasNewer}
        hasNext={settled && query.data.hasOlder}
        onPage={(page) => show({ ...filters, page, ...cursorToward(page, filters.page, events) })}
      />
    </section>
  );
}

/**
 * The cursor of the page next to the one shown: older than its last event, or newer than its
 * first. The first page needs none, so that it shows the newest events as they come.
 */
function cursorToward(
  page: number,
  shown: number,
  events: readonly { id: string }[],
): { before: string; after: string } {
  if (page <= 1) return { before: '', after: '' };
  return page > shown
    ? { before: events.at(-1)?.id ?? '', after: '' }
    : { before: '', after: events[0]?.id ?? '' };
}
