import { useTranslation } from 'react-i18next';
import { TimeRangeFields } from '../../ui/TimeRangeFields';
import { CHANGE_KINDS, type ChangeKind, type ChangeSetFilter } from './historyTypes';

/** What the user narrows the changes to; times as `datetime-local` gives them. */
export interface ChangeFilters {
  user: string;
  kinds: ChangeKind[];
  from: string;
  to: string;
}

export const NO_CHANGE_FILTERS: ChangeFilters = { user: '', kinds: [], from: '', to: '' };

interface ChangeFilterBarProps {
  filters: ChangeFilters;
  onChange: (change: Partial<ChangeFilters>) => void;
}

/** Narrows a table's changes by user, kind and time; applied as they change. */
export function ChangeFilterBar({ filters, onChange }: ChangeFilterBarProps) {
  const { t } = useTranslation();
  const toggle = (kind: ChangeKind) =>
    onChange({
      kinds: filters.kinds.includes(kind)
        ? filters.kinds.filter((candidate) => candidate !== kind)
        : [...filters.kinds, kind],
    });
  return (
    <search className="history-filters" aria-label={t('changeHistory.filters.label')}>
      <div className="filter-bar">
        <label className="inline-field">
          <span>{t('changeHistory.filters.user')}</span>
          <input
            type="search"
            value={filters.user}
            onChange={(event) => onChange({ user: event.target.value })}
          />
        </label>
        <TimeRangeFields
          from={filters.from}
          to={filters.to}
          labels={{ from: t('changeHistory.filters.from'), to: t('changeHistory.filters.to') }}
          onChange={onChange}
        />
      </div>
      <fieldset className="toggle-group" aria-label={t('changeHistory.filters.kinds')}>
        <span className="toggle-group-label" aria-hidden="true">
          {t('changeHistory.filters.kinds')}
        </span>
        {CHANGE_KINDS.map((kind) => (
          <button
            key={kind}
            type="button"
            className="action-toggle"
            aria-pressed={filters.kinds.includes(kind)}
            onClick={() => toggle(kind)}
          >
            {t(`changeHistory.kinds.${kind}`)}
          </button>
        ))}
      </fieldset>
    </search>
  );
}

const MINUTE_MS = 60_000;

/** A `datetime-local` value as an instant, `minutes` later; null if it is not a valid one. */
function instant(local: string, minutes = 0): string | null {
  const time = new Date(local).getTime();
  return local === '' || Number.isNaN(time)
    ? null
    : new Date(time + minutes * MINUTE_MS).toISOString();
}

/** The filters as the API takes them. */
export function toChangeSetFilter(filters: ChangeFilters): ChangeSetFilter {
  return {
    user: filters.user.trim() || null,
    kinds: filters.kinds.length > 0 ? filters.kinds : null,
    from: instant(filters.from),
    // `to` is exclusive and the field shows minutes: "until 10:05" includes 10:05:59.
    to: instant(filters.to, 1),
  };
}
