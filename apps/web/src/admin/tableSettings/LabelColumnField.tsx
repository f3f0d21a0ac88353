import { useTranslation } from 'react-i18next';

/** The text column value help shows beside a table's keys; empty for its first text column. */
export function LabelColumnField({
  table,
  form,
  value,
  onChange,
}: {
  table: string;
  form: string;
  value: string;
  onChange: (column: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <input
      form={form}
      type="text"
      value={value}
      placeholder={t('tableSettings.firstTextColumn')}
      aria-label={t('tableSettings.labelColumnOf', { table })}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}
