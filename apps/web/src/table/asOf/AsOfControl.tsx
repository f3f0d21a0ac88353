import './asOf.css';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fromLocalInput, toLocalInput, userTimeZone } from './asOfTime';

interface AsOfControlProps {
  /** The time shown (ISO), null for today. */
  asOf: string | null;
  onChange: (asOf: string | null) => void;
  /** The user is editing: the grid stays on today's rows. */
  editing: boolean;
}

/**
 * "Show as of…": a date and time in the user's time zone. While another time is shown, the
 * same button changes it; the banner above the grid (AsOfBanner) leads back to today.
 */
export function AsOfControl({ asOf, onChange, editing }: AsOfControlProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState('');
  const [invalid, setInvalid] = useState(false);
  const inputId = useId();
  if (!open) {
    return (
      <span className="as-of-control">
        <button
          type="button"
          className="button small"
          data-testid="as-of-open"
          disabled={editing}
          title={editing ? t('asOf.closedWhileEditing') : t('asOf.openHint')}
          onClick={() => {
            setValue(toLocalInput(asOf === null ? new Date() : new Date(asOf)));
            setInvalid(false);
            setOpen(true);
          }}
        >
          {asOf === null ? t('asOf.open') : t('asOf.change')}
        </button>
      </span>
    );
  }
  const show = () => {
    const chosen = fromLocalInput(value);
    if (!chosen) return setInvalid(true);
    setOpen(false);
    onChange(chosen);
  };
  return (
    <form
      className="as-of-control as-of-form"
      data-testid="as-of-form"
      onSubmit={(event) => {
        event.preventDefault();
        show();
      }}
    >
      <label htmlFor={inputId}>{t('asOf.label')}</label>
      <input
        id={inputId}
        type="datetime-local"
        value={value}
        aria-invalid={invalid}
        aria-describedby={`${inputId}-zone`}
        onChange={(event) => {
          setValue(event.target.value);
          setInvalid(false);
        }}
      />
      <span id={`${inputId}-zone`} className="muted as-of-zone">
        {invalid ? t('asOf.invalid') : t('asOf.zone', { zone: userTimeZone() })}
      </span>
      <button type="submit" className="button small primary">
        {t('asOf.show')}
      </button>
      <button type="button" className="button small subtle" onClick={() => setOpen(false)}>
        {t('asOf.cancel')}
      </button>
    </form>
  );
}
