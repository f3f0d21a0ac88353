import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate } from 'react-router';
import { graphqlRequest } from '../api/graphqlRequest';
import { useFormatters } from '../i18n/useFormatters';
import { roleAtLeast } from '../session/roles';
import { useSession } from '../session/useSession';
import { LockBreakDialog } from '../tables/LockBreakDialog';
import { type TableInfo, tablesOptions, useTables } from '../tables/useTables';
import { describeError } from '../ui/describeError';
import { LoadingState } from '../ui/LoadingState';
import { useNotify } from '../ui/Notices';
import { TableLinks } from '../ui/TableLinks';
import { useNow } from '../ui/useNow';
import { usePageTitle } from '../ui/usePageTitle';
import { AdminHistoryTabs } from './AdminHistoryTabs';
import { forceReleaseMutation } from './adminOperations';
import { IdleLimitSettings } from './IdleLimitSettings';
import { LockHistory } from './LockHistory';
import { SecurityEvents } from './SecurityEvents';

// Renewals move lease ends every 10 s without an event (announcing each would flood the
// history), so this page alone also polls, to keep the lease ends it shows true.
const LEASE_WATCH_MS = 10_000;

/**
 * Admins only (the admin menu's Locks): every lock held now, a way to end or take over one, the
 * idle limits, and below them one of the histories: the lock history or the security events.
 */
export function AdminPage({ history }: { history: 'locks' | 'security' }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const now = useNow();
  const notify = useNotify();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { data: user } = useSession();
  usePageTitle(t('adminMenu.locks'));
  const tables = useTables({ refreshMs: LEASE_WATCH_MS });
  const [target, setTarget] = useState<TableInfo | null>(null);

  const release = useMutation({
    mutationFn: (variables: { table: string; reason: string }) =>
      graphqlRequest(forceReleaseMutation, variables),
    onSuccess: (_result, { table }) => {
      notify('success', (t) => t('forceRelease.done', { table }));
      setTarget(null);
    },
    onError: (error) => notify('error', (t) => describeError(error, t)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: tablesOptions.queryKey }),
  });

  if (!user) return null;
  if (!roleAtLeast(user.role, 'admin')) return <Navigate to="/tables" replace />;
  if (!tables.data) {
    return tables.isError ? (
      <p className="banner banner-error">{describeError(tables.error, t)}</p>
    ) : (
      <LoadingState />
    );
  }

  const held = tables.data.filter((table) => table.status === 'editing');
  const lockedBy = (holder: string) =>
    tables.data.filter((table) => table.lockedBy.includes(holder)).map((table) => table.name);

  return (
    <section className="page">
      <div className="page-header">
        <div>
          <h1>{t('adminMenu.locks')}</h1>
          <p className="muted">{t('admin.subtitle')}</p>
        </div>
      </div>
      <section className="page-section" aria-labelledby="current-locks-title">
        <h2 id="current-locks-title" className="section-title">
          {t('admin.title')}
        </h2>
        <div className="card table-card">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">{t('admin.columns.table')}</th>
                <th scope="col">{t('admin.columns.editor')}</th>
                <th scope="col">{t('admin.columns.since')}</th>
                <th scope="col">{t('admin.columns.leaseEnds')}</th>
                <th scope="col">{t('admin.columns.locks')}</th>
                <th scope="col" className="actions-column">
                  <span className="visually-hidden">{t('tables.columns.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {held.map((table) => (
                <tr key={table.name} data-testid={`lock-row-${table.name}`}>
                  <th scope="row">
                    <Link to={`/tables/${encodeURIComponent(table.name)}`} className="table-name">
                      {table.name}
                    </Link>
                  </th>
                  <td>{table.editor}</td>
                  <td>
                    {format.dateTime(table.acquiredAt ?? table.updatedAt)}
                    <span className="muted">
                      {' '}
                      · {format.relative(table.acquiredAt ?? table.updatedAt, now)}
                    </span>
                  </td>
                  <td data-testid="lease-ends">
                    {table.leaseExpiresAt ? (
                      <time dateTime={table.leaseExpiresAt}>
                        {format.time(table.leaseExpiresAt)}
                      </time>
                    ) : (
                      <span className="muted">{t('admin.leaseNever')}</span>
                    )}
                  </td>
                  <td>
                    <TableLinks names={lockedBy(table.name)} />
                  </td>
                  <td className="actions-column">
                    <div className="row-actions">
                      {/* Taking over means editing: it happens on the table page, which holds the lock.
                        An admin's own lock moves to a tab from that page too, without a reason. */}
                      {table.editor !== user.name && (
                        <button
                          type="button"
                          className="button small"
                          onClick={() =>
                            navigate(`/tables/${encodeURIComponent(table.name)}`, {
                              state: { takeOver: true },
                            })
                          }
                        >
                          {t('takeOver.action')}
                        </button>
                      )}
                      <button
                        type="button"
                        className="button danger small"
                        onClick={() => setTarget(table)}
                      >
                        {t('admin.forceRelease')}
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {held.length === 0 && <p className="empty-state">{t('admin.noLocks')}</p>}
        </div>
      </section>
      <IdleLimitSettings tableNames={tables.data.map((table) => table.name)} />
      <AdminHistoryTabs />
      {history === 'locks' && <LockHistory tableNames={tables.data.map((table) => table.name)} />}
      {history === 'security' && <SecurityEvents />}
      {target && (
        <LockBreakDialog
          kind="forceRelease"
          table={target}
          lockedTables={lockedBy(target.name)}
          busy={release.isPending}
          onConfirm={(reason) => release.mutate({ table: target.name, reason })}
          onCancel={() => setTarget(null)}
        />
      )}
    </section>
  );
}
