import { useTranslation } from 'react-i18next';
import { parseBooleanText } from '../changes/booleanText';

interface BooleanFieldProps {
  id: string;
  /** The value as text (`true`, `f`, … or empty for NULL). */
  text: string;
  /** NULL is allowed: the choice offers "empty" too. */
  nullable: boolean;
  onChange: (text: string) => void;
  'aria-invalid': boolean;
  'aria-describedby': string | undefined;
  className: string | undefined;
}

/** A yes/no column as a choice, not a text to type `true` into (a phone has no such keys). */
export function BooleanField({ text, nullable, onChange, ...field }: BooleanFieldProps) {
  const { t } = useTranslation();
  const value = parseBooleanText(text);
  return (
    <select
      {...field}
      value={value === null ? '' : String(value)}
      onChange={(event) => onChange(event.target.value)}
    >
      {(nullable || value === null) && <option value="">{t('rowDetails.empty')}</option>}
      <option value="true">{t('grid.yes')}</option>
      <option value="false">{t('grid.no')}</option>
    </select>
  );
}
