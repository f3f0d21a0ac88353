import { useTranslation } from 'react-i18next';
import { TimeRangeFields } from '../ui/TimeRangeFields';
import { useUrlText } from '../ui/useUrlText';
import type { HistoryFilters } from './historyFilters';

interface HistoryFilterBarProps<Action extends string> {
  filters: HistoryFilters<Action>;
  /** The actions to filter by, and how each is called. */
  actions: readonly Action[];
  actionLabel: (action: Action) => string;
  /** What the user field matches, as its placeholder says. */
  userPlaceholder: string;
  /** The tables to filter by; no table filter without them. */
  tableNames?: readonly string[];
  onChange: (change: Partial<HistoryFilters<Action>>) => void;
}

/** Narrows an audit history by table, user, actions and time; applied as they change. */
export function HistoryFilterBar<Action extends string>({
  filters,
  actions,
  actionLabel,
  userPlaceholder,
  tableNames,
  onChange,
}: HistoryFilterBarProps<Action>) {
  const { t } = useTranslation();
  const user = useUrlText(filters.user);
  const filtered =
    filters.table !== '' ||
    filters.user !== '' ||
    filters.actions.length > 0 ||
    filters.from !== '' ||
    filters.to !== '';
  const toggle = (action: Action) =>
    onChange({
      actions: filters.actions.includes(action)
        ? filters.actions.filter((candidate) => candidate !== action)
        : [...filters.actions, action],
    });
  return (
    <search className="history-filters" aria-label={t('history.filters.label')}>
      <div className="filter-bar">
        {tableNames && (
          <label className="inline-field">
            <span>{t('history.filters.table')}</span>
            <select
              value={filters.table}
              onChange={(event) => onChange({ table: event.target.value })}
            >
              <option value="">{t('history.filters.allTables')}</option>
              {tableNames.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </label>
        )}
        <label className="inline-field">
          <span>{t('history.filters.user')}</span>
          <input
            type="search"
            ref={user.ref}
            value={user.text}
            placeholder={userPlaceholder}
            onChange={(event) => {
              user.setText(event.target.value);
              onChange({ user: event.target.value });
            }}
          />
        </label>
        <TimeRangeFields
          from={filters.from}
          to={filters.to}
          labels={{ from: t('history.filters.from'), to: t('history.filters.to') }}
          onChange={onChange}
        />
        {filtered && (
          <button
            type="button"
            className="button subtle small"
            onClick={() => onChange({ table: '', user: '', actions: [], from: '', to: '' })}
          >
            {t('history.filters.clear')}
          </button>
        )}
      </div>
      <fieldset className="toggle-group" aria-label={t('history.filters.actions')}>
        <span className="toggle-group-label" aria-hidden="true">
          {t('history.filters.actions')}
        </span>
        {actions.map((action) => (
          <button
            key={action}
            type="button"
            className={`action-toggle action-${action}`}
            aria-pressed={filters.actions.includes(action)}
            onClick={() => toggle(action)}
          >
            {actionLabel(action)}
          </button>
        ))}
      </fieldset>
    </search>
  );
}
