import './TablePicker.css';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

// Enough to scan at a glance; with hundreds of tables, the search narrows the rest.
const SHOWN_MATCHES = 50;

interface TablePickerProps {
  legend: string;
  names: readonly string[];
  chosen: readonly string[];
  onChange: (chosen: string[]) => void;
}

/** Choose tables out of hundreds: a search, the matching tables as checkboxes, the chosen ones as chips. */
export function TablePicker({ legend, names, chosen, onChange }: TablePickerProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const needle = search.trim().toLowerCase();
  const matches = names.filter((name) => name.toLowerCase().includes(needle));
  const shown = matches.slice(0, SHOWN_MATCHES);
  const toggle = (name: string, on: boolean) =>
    onChange(on ? [...chosen, name] : chosen.filter((other) => other !== name));
  return (
    <fieldset className="table-picker">
      <legend>{legend}</legend>
      <input
        type="search"
        className="search-input"
        aria-label={t('tableSettings.picker.search')}
        placeholder={t('tableSettings.picker.search')}
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      <div className="table-picker-matches">
        {shown.map((name) => (
          <label key={name} className="checkbox">
            <input
              type="checkbox"
              checked={chosen.includes(name)}
              onChange={(event) => toggle(name, event.target.checked)}
            />
            {name}
          </label>
        ))}
      </div>
      <p className="muted" aria-live="polite">
        {matches.length > shown.length
          ? t('tableSettings.picker.someShown', { shown: shown.length, count: matches.length })
          : t('tableSettings.picker.allShown', { count: matches.length })}
      </p>
      {chosen.length > 0 && (
        <div className="table-picker-chosen">
          <span>{t('tableSettings.picker.chosen', { count: chosen.length })}</span>
          {chosen.map((name) => (
            <button
              key={name}
              type="button"
              className="chip"
              aria-label={t('tableSettings.picker.remove', { table: name })}
              onClick={() => toggle(name, false)}
            >
              {name} ×
            </button>
          ))}
        </div>
      )}
    </fieldset>
  );
}
