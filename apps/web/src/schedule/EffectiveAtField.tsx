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
  return (
    <label className="field">
      {t('schedule.when')}
      <span className="effective-at-field">
        <input
          type="datetime-local"
          step={1}
          value={value}
          required
          onChange={(event) => onChange(event.target.value)}
        />
        <span className="muted" data-testid="time-zone">
          {userTimeZone()}
        </span>
      </span>
    </label>
  );
}
