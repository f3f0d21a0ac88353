import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { graphqlRequest } from '../../api/graphqlRequest';
import type { TableSettingsQuery, TakeOverRule } from '../../generated/graphql';
import { setTakeOverRuleMutation } from './governanceOperations';
import { useSettingsChange } from './useSettingsChange';

/** Who may take over a lock besides admins, and after how long idle. */
export function TakeOverRuleForm({ current }: { current: TableSettingsQuery['takeOverSettings'] }) {
  const { t } = useTranslation();
  const [rule, setRule] = useState<TakeOverRule>(current.rule);
  const [minutes, setMinutes] = useState(current.idleMinutes.toString());
  const save = useSettingsChange(
    () => graphqlRequest(setTakeOverRuleMutation, { rule, idleMinutes: Number(minutes) }),
    (t) => t('tableSettings.takeOverSaved'),
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
