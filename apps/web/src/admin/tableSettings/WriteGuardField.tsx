import { useTranslation } from 'react-i18next';
import type { WriteGuard } from '../../generated/graphql';

const GUARDS: WriteGuard[] = ['OFF', 'RECORD', 'ENFORCE'];

/** A table's write guard, with the sentence that says what the chosen one does. */
export function WriteGuardField({
  table,
  form,
  value,
  onChange,
}: {
  table: string;
  form: string;
  value: WriteGuard;
  onChange: (guard: WriteGuard) => void;
}) {
  const { t } = useTranslation();
  const hint = `write-guard-hint-${table}`;
  return (
    <>
      <select
        form={form}
        value={value}
        aria-label={t('tableSettings.writeGuardOf', { table })}
        aria-describedby={hint}
        onChange={(event) => onChange(event.target.value as WriteGuard)}
      >
        {GUARDS.map((guard) => (
          <option key={guard} value={guard}>
            {t(`tableSettings.writeGuards.${guard}`)}
          </option>
        ))}
      </select>
      <p id={hint} className="muted small">
        {t(`tableSettings.writeGuardHints.${value}`)}
      </p>
    </>
  );
}
