import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { graphqlRequest } from '../../api/graphqlRequest';
import type { TablePolicyInput, TableSettingsQuery, WriteGuard } from '../../generated/graphql';
import { ColumnNameField } from './ColumnNameField';
import { setTablePolicyMutation } from './governanceOperations';
import { useSettingsChange } from './useSettingsChange';
import { WriteGuardField } from './WriteGuardField';

type Policy = TableSettingsQuery['tablePolicies'][number];

/** One table's policy as a row of inputs, saved on its own. */
export function PolicyRow({ policy, defaultGuard }: { policy: Policy; defaultGuard: WriteGuard }) {
  const { t } = useTranslation();
  const [readOnly, setReadOnly] = useState(policy.readOnly);
  const [locking, setLocking] = useState(policy.takesPartInLocking);
  const [groups, setGroups] = useState(policy.editGroups.join(', '));
  const [maxLease, setMaxLease] = useState(policy.maxLeaseSeconds?.toString() ?? '');
  const [writeGuard, setWriteGuard] = useState(policy.writeGuard ?? defaultGuard);
  const [labelColumn, setLabelColumn] = useState(policy.labelColumn ?? '');
  const [rowLockColumn, setRowLockColumn] = useState(policy.rowLockColumn ?? '');
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
      writeGuard,
      labelColumn: labelColumn.trim() === '' ? null : labelColumn.trim(),
      rowLockColumn: rowLockColumn.trim() === '' ? null : rowLockColumn.trim(),
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
        <WriteGuardField
          table={policy.table}
          form={form}
          value={writeGuard}
          onChange={setWriteGuard}
        />
      </td>
      <td>
        <ColumnNameField
          form={form}
          value={labelColumn}
          placeholder={t('tableSettings.firstTextColumn')}
          label={t('tableSettings.labelColumnOf', { table: policy.table })}
          onChange={setLabelColumn}
        />
      </td>
      <td>
        <ColumnNameField
          form={form}
          value={rowLockColumn}
          placeholder={t('tableSettings.primaryKey')}
          label={t('tableSettings.rowLockColumnOf', { table: policy.table })}
          onChange={setRowLockColumn}
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
