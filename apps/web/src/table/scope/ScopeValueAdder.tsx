import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ReferenceCombobox } from '../valueHelp/ReferenceCombobox';

interface ScopeValueAdderProps {
  table: string;
  column: string;
  /** The column is a foreign key: value help finds its values by key or label. */
  reference: boolean;
  onAdd: (value: string) => void;
}

/** A field for one more value of the scope: typed, or found with the column's value help. */
export function ScopeValueAdder({ table, column, reference, onAdd }: ScopeValueAdderProps) {
  const { t } = useTranslation();
  const inputId = useId();
  const [text, setText] = useState('');
  const add = (value: string) => {
    const trimmed = value.trim();
    if (trimmed === '') return;
    onAdd(trimmed);
    setText('');
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add(text);
  };
  const input = { id: inputId, className: 'scope-add-input', autoComplete: 'off' };
  return (
    <form className="scope-add" onSubmit={submit}>
      <label htmlFor={inputId}>{t('rowScope.addValue', { column })}</label>
      <div className="scope-add-row">
        {reference ? (
          <div className="reference-field">
            <ReferenceCombobox
              table={table}
              column={column}
              text={text}
              onTextChange={setText}
              onPick={(option) => add(option.key)}
              onEnter={() => add(text)}
              listWhileFocused
              input={input}
            />
          </div>
        ) : (
          <input {...input} value={text} onChange={(event) => setText(event.target.value)} />
        )}
        <button type="submit" className="button small">
          {t('rowScope.add')}
        </button>
      </div>
    </form>
  );
}
