import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { TableStatus } from '../generated/graphql';
import { useFormatters } from '../i18n/useFormatters';
import { WaitingCount } from '../queue/WaitingLine';
import { roleAtLeast } from '../session/roles';
import { useSession } from '../session/useSession';
import { describeError } from '../ui/describeError';
import { LoadingState } from '../ui/LoadingState';
import { TableLinks } from '../ui/TableLinks';
import { useNow } from '../ui/useNow';
import { useUrlText } from '../ui/useUrlText';
import { editBlockMessage } from './editBlockMessage';
import { RuleBadges } from './RuleBadges';
import { StatusBadge } from './StatusBadge';
import { type TableInfo, useTables } from './useTables';

const STATUS_FILTERS = ['all', 'normal', 'editing', 'locked'] as const;
type StatusFilter = (typeof STATUS_FILTERS)[number];

function parseStatusFilter(value: string | null): StatusFilter {
  return STATUS_FILTERS.find((candidate) => candidate === value) ?? 'all';
}

/** Every master table and who holds what; the way into viewing and editing one. */
export function TablesPage() {
  const { t } = useTranslation();
  const tables = useTables();
  const { data: user } = useSession();
  // Filters live in the URL: a reload or a shared link shows the same list.
  const [searchParams, setSearchParams] = useSearchParams();
  const nameFilter = useUrlText(searchParams.get('q') ?? '');
  const statusFilter = parseStatusFilter(searchParams.get('status'));

  const setFilter = (key: 'q' | 'status', value: string) => {
    setSearchParams(
      (params) => {
        if (value === '' || value === 'all') params.delete(key);
        else params.set(key, value);
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

  const all = tables.data;
  const needle = nameFilter.text.trim().toLowerCase();
  const shown = all.filter(
    (table) =>
      (statusFilter === 'all' || table.status === statusFilter) &&
      table.name.toLowerCase().includes(needle),
  );
  const countOf = (status: StatusFilter) =>
    status === 'all' ? all.length : all.filter((table) => table.status === status).length;

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
    </section>
  );
}

interface TableRowProps {
  table: TableInfo;
  userName: string;
  canEdit: boolean;
}

function TableRow({ table, userName, canEdit }: TableRowProps) {
  const { t } = useTranslation();
  const format = useFormatters();
  const now = useNow();
  const navigate = useNavigate();
  const mine = table.status === 'editing' && table.editor === userName;
  const reason = table.editBlock && editBlockMessage(table.editBlock, t);
  const startEditing = () =>
    navigate(`/tables/${encodeURIComponent(table.name)}`, { state: { startEditing: true } });

  return (
    <tr data-testid={`table-row-${table.name}`} data-status={table.status}>
      <th scope="row">
        <Link to={`/tables/${encodeURIComponent(table.name)}`} className="table-name">
          {table.name}
        </Link>
      </th>
      <td>
        <StatusBadge status={table.status} mine={mine} />
        <RuleBadges table={table} />
        <WaitingCount waiters={table.waiters} />
      </td>
      <td data-testid="editor">{table.status === 'normal' ? '' : (table.editor ?? '')}</td>
      <td>{table.lockedBy.join(', ')}</td>
      <td>
        <TableLinks names={table.references} />
      </td>
      <td title={format.dateTime(table.updatedAt)}>{format.relative(table.updatedAt, now)}</td>
      <td className="actions-column">
        <div className="row-actions">
          {canEdit && reason && (
            <span className="block-reason" data-testid="edit-block-reason">
              {reason}
            </span>
          )}
          <Link to={`/tables/${encodeURIComponent(table.name)}`} className="button subtle small">
            {t('tables.open')}
          </Link>
          {canEdit &&
            (mine ? (
              <Link
                to={`/tables/${encodeURIComponent(table.name)}`}
                className="button primary small"
              >
                {t('tables.continueEditing')}
              </Link>
            ) : (
              <button
                type="button"
                className="button primary small"
                disabled={table.editBlock !== null}
                title={reason ?? undefined}
                onClick={startEditing}
              >
                {t('tables.edit')}
              </button>
            ))}
        </div>
      </td>
    </tr>
  );
}
