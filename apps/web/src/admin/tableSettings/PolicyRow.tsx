import './policies.css';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { graphqlRequest } from '../../api/graphqlRequest';
import type { TablePolicyInput, TableSettingsQuery, WriteGuard } from '../../generated/graphql';
import { useNotify } from '../../ui/Notices';
import { ColumnNameField } from './ColumnNameField';
import { setTablePolicyMutation } from './governanceOperations';
import { type PolicyForm, policyChangeOf, policyFormOf } from './policyChange';
import { RoleChoices } from './RoleChoices';
import { useSettingsChange } from './useSettingsChange';
import { WriteGuardField } from './WriteGuardField';

type Policy = TableSettingsQuery['tablePolicies'][number];

/** One table's policy as a row of inputs, saved on its own: only what the admin changed. */
export function PolicyRow({ policy, defaultGuard }: { policy: Policy; defaultGuard: WriteGuard }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const [shown, setShown] = useState(() => policyFormOf(policy, defaultGuard));
  const edit = (change: Partial<PolicyForm>) => setShown((current) => ({ ...current, ...change }));
  const save = useSettingsChange(
    (input: TablePolicyInput) =>
      graphqlRequest(setTablePolicyMutation, { table: policy.table, policy: input }),
    t('tableSettings.saved', { table: policy.table }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const change = policyChangeOf(policy, defaultGuard, shown);
    if (Object.keys(change).length === 0) {
      notify('info', (tr) => tr('fourEyes.policy.unchanged', { table: policy.table }));
      return;
    }
    save.mutate(change);
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
          checked={shown.readOnly}
          aria-label={t('tableSettings.readOnlyOf', { table: policy.table })}
          onChange={(event) => edit({ readOnly: event.target.checked })}
        />
      </td>
      <td>
        <input
          form={form}
          type="checkbox"
          checked={shown.takesPartInLocking}
          aria-label={t('tableSettings.lockingOf', { table: policy.table })}
          onChange={(event) => edit({ takesPartInLocking: event.target.checked })}
        />
      </td>
      <td className="policy-who">
        <RoleChoices
          form={form}
          legend={t('fourEyes.policy.editRolesOf', { table: policy.table })}
          value={shown.editRoles}
          onChange={(editRoles) => edit({ editRoles })}
        />
        <input
          form={form}
          type="text"
          value={shown.editGroups}
          placeholder={t('fourEyes.policy.groups')}
          aria-label={t('tableSettings.editGroupsOf', { table: policy.table })}
          onChange={(event) => edit({ editGroups: event.target.value })}
        />
      </td>
      <td className="policy-who">
        <label className="policy-switch">
          <input
            form={form}
            type="checkbox"
            checked={shown.changesNeedApproval}
            aria-label={t('fourEyes.policy.needsApprovalOf', { table: policy.table })}
            onChange={(event) => edit({ changesNeedApproval: event.target.checked })}
          />
          {t('fourEyes.policy.needsApproval')}
        </label>
        <RoleChoices
          form={form}
          legend={t('fourEyes.policy.approverRolesOf', { table: policy.table })}
          value={shown.approverRoles}
          onChange={(approverRoles) => edit({ approverRoles })}
        />
        <input
          form={form}
          type="text"
          value={shown.approverGroups}
          placeholder={t('fourEyes.policy.groups')}
          aria-label={t('fourEyes.policy.approverGroupsOf', { table: policy.table })}
          onChange={(event) => edit({ approverGroups: event.target.value })}
        />
      </td>
      <td>
        <input
          form={form}
          type="number"
          min={15}
          max={86400}
          value={shown.maxLease}
          placeholder={t('tableSettings.noCap')}
          aria-label={t('tableSettings.maxLeaseOf', { table: policy.table })}
          onChange={(event) => edit({ maxLease: event.target.value })}
        />
      </td>
      <td>
        <WriteGuardField
          table={policy.table}
          form={form}
          value={shown.writeGuard}
          onChange={(writeGuard) => edit({ writeGuard })}
        />
      </td>
      <td>
        <ColumnNameField
          form={form}
          value={shown.labelColumn}
          placeholder={t('tableSettings.firstTextColumn')}
          label={t('tableSettings.labelColumnOf', { table: policy.table })}
          onChange={(labelColumn) => edit({ labelColumn })}
        />
      </td>
      <td>
        <ColumnNameField
          form={form}
          value={shown.rowLockColumn}
          placeholder={t('tableSettings.primaryKey')}
          label={t('tableSettings.rowLockColumnOf', { table: policy.table })}
          onChange={(rowLockColumn) => edit({ rowLockColumn })}
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
