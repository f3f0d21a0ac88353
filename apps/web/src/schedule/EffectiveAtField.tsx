import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { userTimeZone } from './localDateTime';

interface EffectiveAtFieldProps {
  /** A `datetime-local` value, in the user's time zone. */
  value: string;
  onChange: (value: string) => void;
}

/** When a change takes effect: date and time to the second, with the zone they are read in. */
export function EffectiveAtField({ value, onChange }: EffectiveAtFieldProps) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{t('schedule.when')}</label>
      <span className="effective-at-field">
        <input
          id={id}
          type="datetime-local"
          step={1}
          value={value}
          required
          aria-describedby={`${id}-zone`}
          onChange={(event) => onChange(event.target.value)}
        />
        <span id={`${id}-zone`} className="muted" data-testid="time-zone">
          {t('schedule.zone', { zone: userTimeZone() })}
        </span>
      </span>
    </div>
  );
}
