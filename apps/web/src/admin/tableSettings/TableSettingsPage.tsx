import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { roleAtLeast } from '../../session/roles';
import { useSession } from '../../session/useSession';
import { describeError } from '../../ui/describeError';
import { LoadingState } from '../../ui/LoadingState';
import { usePageTitle } from '../../ui/usePageTitle';
import { FreezeForm } from './FreezeForm';
import { PolicyRow } from './PolicyRow';
import { TakeOverRuleForm } from './TakeOverRuleForm';
import { tableSettingsOptions } from './tableSettingsOptions';
import { WriteGuardStatusPanel } from './WriteGuardStatusPanel';

/** Admins only: each table's policy, freezes and thaws, the take-over rule and the write guard. */
export function TableSettingsPage() {
  const { t } = useTranslation();
  const { data: user } = useSession();
  usePageTitle(t('tableSettings.title'));
  const settings = useQuery(tableSettingsOptions);
  const [search, setSearch] = useState('');

  if (!user) return null;
  if (!roleAtLeast(user.role, 'admin')) return <Navigate to="/tables" replace />;
  if (!settings.data) {
    return settings.isError ? (
      <p className="banner banner-error">{describeError(settings.error, t)}</p>
    ) : (
      <LoadingState />
    );
  }
  const policies = settings.data.tablePolicies.filter((policy) =>
    policy.table.toLowerCase().includes(search.trim().toLowerCase()),
  );
  return (
    <section className="page table-settings">
      <div className="page-header">
        <div className="page-title">
          <h1>{t('tableSettings.title')}</h1>
          <p className="muted">{t('tableSettings.subtitle')}</p>
        </div>
      </div>
      <FreezeForm />
      <TakeOverRuleForm current={settings.data.takeOverSettings} />
      <WriteGuardStatusPanel status={settings.data.writeGuardStatus} />
      <section className="panel" aria-labelledby="policies-heading">
        <h2 id="policies-heading">{t('tableSettings.policies')}</h2>
        <p className="muted">{t('fourEyes.policy.whoHint')}</p>
        <label className="field">
          <span>{t('tableSettings.search')}</span>
          <input type="search" value={search} onChange={(event) => setSearch(event.target.value)} />
        </label>
        {/* Wider than a laptop screen with every setting: it scrolls rather than cut off Save. */}
        <div className="table-card">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">{t('tableSettings.columns.table')}</th>
                <th scope="col">{t('tableSettings.columns.readOnly')}</th>
                <th scope="col">{t('tableSettings.columns.locking')}</th>
                <th scope="col">{t('fourEyes.policy.whoMayEdit')}</th>
                <th scope="col">{t('fourEyes.policy.approval')}</th>
                <th scope="col">{t('tableSettings.columns.maxLease')}</th>
                <th scope="col">{t('tableSettings.columns.writeGuard')}</th>
                <th scope="col">{t('tableSettings.columns.labelColumn')}</th>
                <th scope="col">{t('tableSettings.columns.rowLockColumn')}</th>
                <th scope="col">{t('tables.columns.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {policies.map((policy) => (
                <PolicyRow
                  key={policy.table}
                  policy={policy}
                  defaultGuard={settings.data.writeGuardStatus.defaultGuard}
                />
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </section>
  );
}
