/**
 * A column of the table named in its policy (the label column, the row-lock column); empty for
 * the policy's default, which `placeholder` says.
 */
export function ColumnNameField({
  form,
  value,
  placeholder,
  label,
  onChange,
}: {
  form: string;
  value: string;
  placeholder: string;
  /** What the field is, with the table's name: its accessible name. */
  label: string;
  onChange: (column: string) => void;
}) {
  return (
    <input
      form={form}
      type="text"
      value={value}
      placeholder={placeholder}
      aria-label={label}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}
