import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LockSettingsFieldsFragment } from '../generated/graphql';
import { idleLimitText } from '../i18n/idleLimitText';

/** A new global limit, or a table's own limit (null: it follows the global one again). */
export type IdleLimitChange = { seconds: number } | { table: string; seconds: number | null };

interface IdleLimitFormsProps {
  settings: LockSettingsFieldsFragment;
  tableNames: readonly string[];
  busy: boolean;
  onChange: (request: IdleLimitChange) => void;
}

/** The global limit, the tables with their own, and a form to give one a limit of its own. */
export function IdleLimitForms({ settings, tableNames, busy, onChange }: IdleLimitFormsProps) {
  const { t } = useTranslation();
  const minMinutes = Math.ceil(settings.minIdleLimitSeconds / 60);
  const maxMinutes = Math.floor(settings.maxIdleLimitSeconds / 60);
  const [globalMinutes, setGlobalMinutes] = useState(
    String(Math.round(settings.idleLimitSeconds / 60)),
  );
  const withOwn = new Set(settings.tables.map((own) => own.table));
  const others = tableNames.filter((name) => !withOwn.has(name));
  const [table, setTable] = useState('');
  const [tableMinutes, setTableMinutes] = useState('');
  const minutesInput = {
    type: 'number',
    min: minMinutes,
    max: maxMinutes,
    step: 1,
    required: true,
  };

  const saveGlobal = (event: FormEvent) => {
    event.preventDefault();
    onChange({ seconds: Number(globalMinutes) * 60 });
  };
  const saveTable = (event: FormEvent) => {
    event.preventDefault();
    onChange({ table, seconds: Number(tableMinutes) * 60 });
    setTable('');
    setTableMinutes('');
  };

  return (
    <>
      <form className="filter-bar" onSubmit={saveGlobal}>
        <label className="inline-field">
          <span>{t('idleLimits.global')}</span>
          <input
            {...minutesInput}
            value={globalMinutes}
            onChange={(event) => setGlobalMinutes(event.target.value)}
            data-testid="global-idle-limit"
          />
          <span>{t('idleLimits.minutesUnit')}</span>
        </label>
        <button type="submit" className="button small" disabled={busy}>
          {t('idleLimits.save')}
        </button>
        <span className="muted" data-testid="global-idle-limit-now">
          {t('idleLimits.now', { limit: idleLimitText(settings.idleLimitSeconds, t) })}
        </span>
      </form>
      <table className="data-table">
        <caption className="visually-hidden">{t('idleLimits.ownLimits')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('admin.columns.table')}</th>
            <th scope="col">{t('idleLimits.limit')}</th>
            <th scope="col" className="actions-column">
              <span className="visually-hidden">{t('tables.columns.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {settings.tables.map((own) => (
            <tr key={own.table} data-testid={`idle-limit-${own.table}`}>
              <th scope="row">{own.table}</th>
              <td>{idleLimitText(own.idleLimitSeconds, t)}</td>
              <td className="actions-column">
                <button
                  type="button"
                  className="button subtle small"
                  disabled={busy}
                  onClick={() => onChange({ table: own.table, seconds: null })}
                >
                  {t('idleLimits.followGlobal', { table: own.table })}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {settings.tables.length === 0 && <p className="empty-state">{t('idleLimits.noneOwn')}</p>}
      <form className="filter-bar" onSubmit={saveTable}>
        <label className="inline-field">
          <span>{t('idleLimits.forTable')}</span>
          <select value={table} required onChange={(event) => setTable(event.target.value)}>
            <option value="">{t('idleLimits.chooseTable')}</option>
            {others.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label className="inline-field">
          <span>{t('idleLimits.limit')}</span>
          <input
            {...minutesInput}
            value={tableMinutes}
            onChange={(event) => setTableMinutes(event.target.value)}
          />
          <span>{t('idleLimits.minutesUnit')}</span>
        </label>
        <button type="submit" className="button small" disabled={busy}>
          {t('idleLimits.setForTable')}
        </button>
      </form>
    </>
  );
}
