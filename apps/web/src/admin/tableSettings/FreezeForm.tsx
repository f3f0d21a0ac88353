import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { graphqlRequest } from '../../api/graphqlRequest';
import type { FreezeRule } from '../../generated/graphql';
import { RuleBadges } from '../../tables/RuleBadges';
import { useTables } from '../../tables/useTables';
import { freezeTablesMutation, thawTablesMutation } from './governanceOperations';
import { TablePicker } from './TablePicker';
import { useSettingsChange } from './useSettingsChange';

/** Freezes the chosen tables (or all) for a reason, and lists the frozen ones to thaw. */
export function FreezeForm() {
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
    (t) => t('tableSettings.frozen'),
  );
  const thaw = useSettingsChange(
    (table: string) => graphqlRequest(thawTablesMutation, { tables: [table] }),
    (t) => t('tableSettings.thawed'),
  );
  const all = tables.data ?? [];
  const frozen = all.filter((table) => table.frozen);
  return (
    <section className="panel" aria-labelledby="freeze-heading">
      <h2 id="freeze-heading">{t('tableSettings.freeze')}</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          freeze.mutate({ tables: chosen });
        }}
      >
        <TablePicker
          legend={t('tableSettings.tablesToFreeze')}
          names={all.map((table) => table.name)}
          chosen={chosen}
          onChange={setChosen}
        />
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
