import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../ui/Dialog';
import { ReferenceCombobox } from '../valueHelp/ReferenceCombobox';
import { normalizeInput } from './normalizeInput';
import { useValidationMessage } from './useValidationMessage';
import { type ColumnRules, validateValue } from './validateValue';

/** A column, whether it is part of the primary key, and the table it references if any. */
export type KeyedColumn = ColumnRules & { primaryKey: boolean; references?: string | null };

interface SetValueDialogProps {
  /** The table being edited. */
  table: string;
  /** How many rows will get the value. */
  count: number;
  columns: readonly KeyedColumn[];
  onApply: (column: KeyedColumn, text: string) => void;
  onCancel: () => void;
}

/**
 * Asks for a column and a value to write into every selected row. The value is checked as it
 * is typed, as in a cell; a value that cannot be saved cannot be applied.
 */
export function SetValueDialog(props: SetValueDialogProps) {
  const { table, count, columns, onApply, onCancel } = props;
  const { t } = useTranslation();
  const message = useValidationMessage();
  // A key identifies stored rows: it is not one value for many of them.
  const choices = columns.filter((column) => !column.primaryKey);
  const [name, setName] = useState(choices[0]?.name ?? '');
  const [text, setText] = useState('');
  const valueId = useId();
  const column = choices.find((choice) => choice.name === name);
  const issue = column
    ? validateValue(column, normalizeInput(column.kind, column.nullable, text), false)
    : null;
  const valueProps = {
    id: valueId,
    'aria-invalid': issue !== null,
    'aria-describedby': 'set-value-issue',
  };
  return (
    <Dialog
      open
      title={t('setValue.title', { count })}
      onClose={onCancel}
      actions={
        <>
          <button type="button" className="button subtle" onClick={onCancel}>
            {t('common.cancel')}
          </button>
          <button
            type="button"
            className="button primary"
            disabled={!column || issue !== null}
            onClick={() => column && onApply(column, text)}
          >
            {t('setValue.apply', { count })}
          </button>
        </>
      }
    >
      <label className="field">
        <span>{t('setValue.column')}</span>
        <select value={name} onChange={(event) => setName(event.target.value)}>
          {choices.map((choice) => (
            <option key={choice.name} value={choice.name}>
              {choice.name}
            </option>
          ))}
        </select>
      </label>
      <div className="field">
        <label htmlFor={valueId}>{t('setValue.value')}</label>
        {column?.references ? (
          <div className="reference-field">
            <ReferenceCombobox
              // Another column, another list.
              key={column.name}
              table={table}
              column={column.name}
              text={text}
              onTextChange={setText}
              onPick={(option) => setText(option.key)}
              listWhileFocused
              input={valueProps}
            />
          </div>
        ) : (
          <input value={text} {...valueProps} onChange={(event) => setText(event.target.value)} />
        )}
      </div>
      <p id="set-value-issue" className="field-issue" role="status">
        {issue ? message(issue) : column?.nullable ? t('setValue.emptyIsNull') : ''}
      </p>
    </Dialog>
  );
}
