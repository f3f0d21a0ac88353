import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { TableStatus } from '../generated/graphql';
import { roleAtLeast } from '../session/roles';
import { useSession } from '../session/useSession';
import { describeError } from '../ui/describeError';
import { LoadingState } from '../ui/LoadingState';
import { Pager } from '../ui/Pager';
import { useDebouncedValue } from '../ui/useDebouncedValue';
import { usePageTitle } from '../ui/usePageTitle';
import { useUrlText } from '../ui/useUrlText';
import { TableRow } from './TableRow';
import { useTablePage } from './useTablePage';

const STATUS_FILTERS = ['all', 'normal', 'editing', 'locked'] as const;
type StatusFilter = (typeof STATUS_FILTERS)[number];

function parseStatusFilter(value: string | null): StatusFilter {
  return STATUS_FILTERS.find((candidate) => candidate === value) ?? 'all';
}

// A screenful, and few enough to draw at once: the API searches, filters and counts.
const PAGE_SIZE = 100;
// Typing a name asks the API once the typing pauses, not at every key.
const SEARCH_DELAY_MS = 200;

function parsePage(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/** Every master table and who holds what, a page at a time; the way into viewing and editing one. */
export function TablesPage() {
  const { t } = useTranslation();
  const { data: user } = useSession();
  usePageTitle(t('tables.title'));
  // Filters live in the URL: a reload or a shared link shows the same list.
  const [searchParams, setSearchParams] = useSearchParams();
  const nameFilter = useUrlText(searchParams.get('q') ?? '');
  const statusFilter = parseStatusFilter(searchParams.get('status'));
  const page = parsePage(searchParams.get('page'));
  const search = useDebouncedValue((searchParams.get('q') ?? '').trim(), SEARCH_DELAY_MS);
  const tables = useTablePage({
    search,
    status: statusFilter === 'all' ? null : statusFilter,
    offset: (page - 1) * PAGE_SIZE,
    limit: PAGE_SIZE,
  });

  const setFilter = (key: 'q' | 'status' | 'page', value: string) => {
    setSearchParams(
      (params) => {
        if (value === '' || value === 'all' || (key === 'page' && value === '1')) {
          params.delete(key);
        } else params.set(key, value);
        // Another filter shows another list: from its first page.
        if (key !== 'page') params.delete('page');
        return params;
      },
      { replace: true },
    );
  };

  if (!user) return null;
  if (tables.isPending) return <LoadingState />;
  if (tables.isError) {
    return (
      <p className="banner banner-error" role="alert">
        {describeError(tables.error, t)}
      </p>
    );
  }

  const { counts, total } = tables.data;
  const shown = tables.data.tables;
  const countOf = (status: StatusFilter) =>
    status === 'all' ? counts.normal + counts.editing + counts.locked : counts[status];

  return (
    <section className="page">
      <div className="page-header">
        <div>
          <h1>{t('tables.title')}</h1>
          <p className="muted">{t('tables.subtitle')}</p>
        </div>
      </div>
      <div className="filter-bar">
        <input
          type="search"
          className="search-input"
          placeholder={t('tables.filterByName')}
          aria-label={t('tables.filterByName')}
          ref={nameFilter.ref}
          value={nameFilter.text}
          onChange={(event) => {
            nameFilter.setText(event.target.value);
            setFilter('q', event.target.value);
          }}
        />
        <fieldset className="segmented" aria-label={t('tables.filterByStatus')}>
          {STATUS_FILTERS.map((status) => (
            <button
              key={status}
              type="button"
              aria-pressed={statusFilter === status}
              onClick={() => setFilter('status', status)}
            >
              {status === 'all' ? t('tables.allStatuses') : t(`status.${status as TableStatus}`)}
              <span className="segment-count">{countOf(status)}</span>
            </button>
          ))}
        </fieldset>
      </div>
      <div className="card table-card">
        <table className="data-table tables-list">
          <thead>
            <tr>
              <th scope="col">{t('tables.columns.name')}</th>
              <th scope="col">{t('tables.columns.status')}</th>
              <th scope="col">{t('tables.columns.editor')}</th>
              <th scope="col">{t('tables.columns.lockedBy')}</th>
              <th scope="col">{t('tables.columns.references')}</th>
              <th scope="col">{t('tables.columns.lastChange')}</th>
              <th scope="col" className="actions-column">
                <span className="visually-hidden">{t('tables.columns.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((table) => (
              <TableRow
                key={table.name}
                table={table}
                userName={user.name}
                canEdit={roleAtLeast(user.role, 'editor')}
              />
            ))}
          </tbody>
        </table>
        {shown.length === 0 && <p className="empty-state">{t('tables.noMatch')}</p>}
      </div>
      {total > PAGE_SIZE && (
        <Pager
          page={page}
          pageSize={PAGE_SIZE}
          total={total}
          onPage={(next) => setFilter('page', String(next))}
        />
      )}
    </section>
  );
}
