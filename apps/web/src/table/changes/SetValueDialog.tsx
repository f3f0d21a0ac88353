import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../ui/Dialog';
import { normalizeInput } from './normalizeInput';
import { useValidationMessage } from './useValidationMessage';
import { type ColumnRules, validateValue } from './validateValue';

/** A column, and whether it is part of the primary key. */
export type KeyedColumn = ColumnRules & { primaryKey: boolean };

interface SetValueDialogProps {
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
export function SetValueDialog({ count, columns, onApply, onCancel }: SetValueDialogProps) {
  const { t } = useTranslation();
  const message = useValidationMessage();
  // A key identifies stored rows: it is not one value for many of them.
  const choices = columns.filter((column) => !column.primaryKey);
  const [name, setName] = useState(choices[0]?.name ?? '');
  const [text, setText] = useState('');
  const column = choices.find((choice) => choice.name === name);
  const issue = column
    ? validateValue(column, normalizeInput(column.kind, column.nullable, text), false)
    : null;
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
      <label className="field">
        <span>{t('setValue.value')}</span>
        <input
          value={text}
          aria-invalid={issue !== null}
          aria-describedby="set-value-issue"
          onChange={(event) => setText(event.target.value)}
        />
      </label>
      <p id="set-value-issue" className="field-issue" role="status">
        {issue ? message(issue) : column?.nullable ? t('setValue.emptyIsNull') : ''}
      </p>
    </Dialog>
  );
}
