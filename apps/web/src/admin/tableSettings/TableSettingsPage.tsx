import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { graphqlRequest } from '../../api/graphqlRequest';
import type {
  FreezeRule,
  TablePolicyInput,
  TableSettingsQuery,
  TakeOverRule,
} from '../../generated/graphql';
import { roleAtLeast } from '../../session/roles';
import { useSession } from '../../session/useSession';
import { RuleBadges } from '../../tables/RuleBadges';
import { tablesOptions, useTables } from '../../tables/useTables';
import { describeError } from '../../ui/describeError';
import { LoadingState } from '../../ui/LoadingState';
import { useNotify } from '../../ui/Notices';
import {
  freezeTablesMutation,
  setTablePolicyMutation,
  setTakeOverRuleMutation,
  tableSettingsQuery,
  thawTablesMutation,
} from './governanceOperations';

const SETTINGS_KEY = ['tableSettings'];
type Policy = TableSettingsQuery['tablePolicies'][number];

/** Admins only: each table's policy, freezes and thaws, and the take-over rule. */
export function TableSettingsPage() {
  const { t } = useTranslation();
  const { data: user } = useSession();
  const settings = useQuery({
    queryKey: SETTINGS_KEY,
    queryFn: () => graphqlRequest(tableSettingsQuery),
  });
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
      <section className="panel" aria-labelledby="policies-heading">
        <h2 id="policies-heading">{t('tableSettings.policies')}</h2>
        <label className="field">
          <span>{t('tableSettings.search')}</span>
          <input type="search" value={search} onChange={(event) => setSearch(event.target.value)} />
        </label>
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">{t('tableSettings.columns.table')}</th>
              <th scope="col">{t('tableSettings.columns.readOnly')}</th>
              <th scope="col">{t('tableSettings.columns.locking')}</th>
              <th scope="col">{t('tableSettings.columns.editGroups')}</th>
              <th scope="col">{t('tableSettings.columns.maxLease')}</th>
              <th scope="col">{t('tables.columns.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {policies.map((policy) => (
              <PolicyRow key={policy.table} policy={policy} />
            ))}
          </tbody>
        </table>
      </section>
    </section>
  );
}

function useSettingsChange<T>(change: (variables: T) => Promise<unknown>, done: string) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: () => notify('success', done),
    onError: (error) => notify('error', describeError(error, t)),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: SETTINGS_KEY }),
        queryClient.invalidateQueries({ queryKey: tablesOptions.queryKey }),
      ]),
  });
}

function PolicyRow({ policy }: { policy: Policy }) {
  const { t } = useTranslation();
  const [readOnly, setReadOnly] = useState(policy.readOnly);
  const [locking, setLocking] = useState(policy.takesPartInLocking);
  const [groups, setGroups] = useState(policy.editGroups.join(', '));
  const [maxLease, setMaxLease] = useState(policy.maxLeaseSeconds?.toString() ?? '');
  const save = useSettingsChange(
    (input: TablePolicyInput) =>
      graphqlRequest(setTablePolicyMutation, { table: policy.table, policy: input }),
    t('tableSettings.saved', { table: policy.table }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({
      readOnly,
      takesPartInLocking: locking,
      editGroups: groups
        .split(',')
        .map((group) => group.trim())
        .filter((group) => group !== ''),
      maxLeaseSeconds: maxLease.trim() === '' ? null : Number(maxLease),
    });
  };
  const form = `policy-${policy.table}`;
  return (
    <tr data-testid={`policy-${policy.table}`}>
      <th scope="row">
        <form id={form} onSubmit={submit} />
        {policy.table}
      </th>
      <td>
        <input
          form={form}
          type="checkbox"
          checked={readOnly}
          aria-label={t('tableSettings.readOnlyOf', { table: policy.table })}
          onChange={(event) => setReadOnly(event.target.checked)}
        />
      </td>
      <td>
        <input
          form={form}
          type="checkbox"
          checked={locking}
          aria-label={t('tableSettings.lockingOf', { table: policy.table })}
          onChange={(event) => setLocking(event.target.checked)}
        />
      </td>
      <td>
        <input
          form={form}
          type="text"
          value={groups}
          placeholder={t('tableSettings.anyEditor')}
          aria-label={t('tableSettings.editGroupsOf', { table: policy.table })}
          onChange={(event) => setGroups(event.target.value)}
        />
      </td>
      <td>
        <input
          form={form}
          type="number"
          min={15}
          max={86400}
          value={maxLease}
          placeholder={t('tableSettings.noCap')}
          aria-label={t('tableSettings.maxLeaseOf', { table: policy.table })}
          onChange={(event) => setMaxLease(event.target.value)}
        />
      </td>
      <td>
        <button
          form={form}
          type="submit"
          className="button small"
          disabled={save.isPending}
          aria-label={t('tableSettings.saveOf', { table: policy.table })}
        >
          {t('tableSettings.save')}
        </button>
      </td>
    </tr>
  );
}

function FreezeForm() {
  const { t } = useTranslation();
  const tables = useTables();
  const [chosen, setChosen] = useState<string[]>([]);
  const [reason, setReason] = useState('');
  const [until, setUntil] = useState('');
  const [rule, setRule] = useState<FreezeRule>('waitForHolders');
  const freeze = useSettingsChange(
    (variables: { tables?: string[]; all?: boolean }) =>
      graphqlRequest(freezeTablesMutation, {
        ...variables,
        reason,
        rule,
        until: until === '' ? null : new Date(until).toISOString(),
      }),
    t('tableSettings.frozen'),
  );
  const thaw = useSettingsChange(
    (table: string) => graphqlRequest(thawTablesMutation, { tables: [table] }),
    t('tableSettings.thawed'),
  );
  const all = tables.data ?? [];
  const frozen = all.filter((table) => table.frozen);
  const toggle = (name: string, on: boolean) =>
    setChosen((names) => (on ? [...names, name] : names.filter((other) => other !== name)));
  return (
    <section className="panel" aria-labelledby="freeze-heading">
      <h2 id="freeze-heading">{t('tableSettings.freeze')}</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          freeze.mutate({ tables: chosen });
        }}
      >
        <fieldset className="freeze-tables">
          <legend>{t('tableSettings.tablesToFreeze')}</legend>
          {all.map((table) => (
            <label key={table.name} className="checkbox">
              <input
                type="checkbox"
                checked={chosen.includes(table.name)}
                onChange={(event) => toggle(table.name, event.target.checked)}
              />
              {table.name}
            </label>
          ))}
        </fieldset>
        <label className="field">
          <span>{t('tableSettings.reason')}</span>
          <input required value={reason} onChange={(event) => setReason(event.target.value)} />
        </label>
        <label className="field">
          <span>{t('tableSettings.until')}</span>
          <input
            type="datetime-local"
            value={until}
            onChange={(event) => setUntil(event.target.value)}
          />
        </label>
        <fieldset>
          <legend>{t('tableSettings.holders')}</legend>
          {(['waitForHolders', 'endLocks'] as const).map((value) => (
            <label key={value} className="checkbox">
              <input
                type="radio"
                name="freeze-rule"
                checked={rule === value}
                onChange={() => setRule(value)}
              />
              {t(`tableSettings.rules.${value}`)}
            </label>
          ))}
        </fieldset>
        <div className="row-actions">
          <button
            type="submit"
            className="button primary"
            disabled={chosen.length === 0 || reason.trim() === '' || freeze.isPending}
          >
            {t('tableSettings.freezeChosen')}
          </button>
          <button
            type="button"
            className="button"
            disabled={reason.trim() === '' || freeze.isPending}
            onClick={() => freeze.mutate({ all: true })}
          >
            {t('tableSettings.freezeAll')}
          </button>
        </div>
      </form>
      {frozen.length > 0 && (
        <ul className="frozen-list">
          {frozen.map((table) => (
            <li key={table.name} data-testid={`frozen-${table.name}`}>
              <strong>{table.name}</strong> <RuleBadges table={table} />{' '}
              <button
                type="button"
                className="button small"
                disabled={thaw.isPending}
                onClick={() => thaw.mutate(table.name)}
              >
                {t('tableSettings.thawOf', { table: table.name })}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function TakeOverRuleForm({ current }: { current: TableSettingsQuery['takeOverSettings'] }) {
  const { t } = useTranslation();
  const [rule, setRule] = useState<TakeOverRule>(current.rule);
  const [minutes, setMinutes] = useState(current.idleMinutes.toString());
  const save = useSettingsChange(
    () => graphqlRequest(setTakeOverRuleMutation, { rule, idleMinutes: Number(minutes) }),
    t('tableSettings.takeOverSaved'),
  );
  return (
    <section className="panel" aria-labelledby="take-over-heading">
      <h2 id="take-over-heading">{t('tableSettings.takeOver')}</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate(undefined);
        }}
      >
        <fieldset>
          <legend>{t('tableSettings.whoMayTakeOver')}</legend>
          {(['admins_only', 'own_sessions', 'idle_holder'] as const).map((value) => (
            <label key={value} className="checkbox">
              <input
                type="radio"
                name="take-over-rule"
                checked={rule === value}
                onChange={() => setRule(value)}
              />
              {t(`tableSettings.takeOverRules.${value}`)}
            </label>
          ))}
        </fieldset>
        <label className="field">
          <span>{t('tableSettings.idleMinutes')}</span>
          <input
            type="number"
            min={1}
            max={1440}
            value={minutes}
            disabled={rule !== 'idle_holder'}
            onChange={(event) => setMinutes(event.target.value)}
          />
        </label>
        <button type="submit" className="button primary" disabled={save.isPending}>
          {t('tableSettings.save')}
        </button>
      </form>
    </section>
  );
}
