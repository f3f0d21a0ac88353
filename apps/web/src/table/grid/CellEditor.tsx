import type { CustomCellEditorProps } from 'ag-grid-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { parseBooleanText } from '../changes/booleanText';
import type { GridRow } from '../changes/gridRow';
import { normalizeInput } from '../changes/normalizeInput';
import type { PendingChanges } from '../changes/PendingChanges';
import { useValidationMessage } from '../changes/useValidationMessage';
import { validateValue } from '../changes/validateValue';
import { focusAtEnd, type TypeAhead, useTypedAhead } from '../typeAhead/TypeAhead';
import type { TableColumn } from './useTableColumns';

export interface CellEditorParams {
  tableColumn: TableColumn;
  pending: PendingChanges;
  typeAhead: TypeAhead;
}

const PLACEHOLDERS: Partial<Record<TableColumn['kind'], string>> = {
  date: 'YYYY-MM-DD',
  timestamp: 'YYYY-MM-DD HH:MM:SS',
};

type CellEditorProps = CustomCellEditorProps<GridRow, string | null> & CellEditorParams;

/** The text the editor starts with: a typed character replaces the value, Backspace clears it. */
function initialText(
  column: TableColumn,
  value: string | null | undefined,
  eventKey: string | null,
) {
  if (column.kind !== 'boolean') {
    if (eventKey === 'Backspace' || eventKey === 'Delete') return '';
    if (eventKey?.length === 1) return eventKey;
  }
  if (column.kind === 'boolean') return String(parseBooleanText(value) ?? '');
  return value ?? '';
}

/**
 * One editor for every column kind, with the input fit for it: numbers with a numeric keyboard,
 * dates as text (the browser's date field turned a typed 2025-02-30 into 50230-02-02), booleans
 * as a choice (with "empty" only where NULL is allowed), text limited to the column's length.
 * An invalid value is kept (the user sees what they typed) and marked, with the reason, until
 * it is fixed.
 */
export function CellEditor(props: CellEditorProps) {
  const { tableColumn: column, pending, typeAhead, value, onValueChange, eventKey, data } = props;
  const { t } = useTranslation();
  const message = useValidationMessage();
  const [text, setText] = useState(() => initialText(column, value, eventKey));
  const inputRef = useRef<HTMLInputElement>(null);
  const selectRef = useRef<HTMLSelectElement>(null);
  const normalized = normalizeInput(column.kind, column.nullable, text);
  const issue = validateValue(column, normalized, pending.isNew(data.id));

  // The grid reads the value only through onValueChange: report the starting text too, with
  // what was typed while the editor was mounting.
  useTypedAhead(typeAhead, (typed) => {
    const start = column.kind === 'boolean' ? text : typed.text(text);
    if (start !== text) setText(start);
    onValueChange(normalizeInput(column.kind, column.nullable, start));
    if (inputRef.current) focusAtEnd(inputRef.current, start);
    else selectRef.current?.focus();
    return inputRef.current ?? selectRef.current;
  });

  const update = (next: string) => {
    setText(next);
    onValueChange(normalizeInput(column.kind, column.nullable, next));
  };
  const className = `cell-editor${issue ? ' cell-editor-invalid' : ''}`;
  const title = issue ? message(issue) : undefined;

  if (column.kind === 'boolean') {
    return (
      <select
        ref={selectRef}
        className={className}
        aria-label={column.name}
        title={title}
        value={text}
        onChange={(event) => update(event.target.value)}
      >
        {(column.nullable || text === '') && <option value="">{t('grid.empty')}</option>}
        <option value="true">{t('grid.yes')}</option>
        <option value="false">{t('grid.no')}</option>
      </select>
    );
  }
  const numeric = column.kind === 'integer' || column.kind === 'decimal';
  return (
    <input
      ref={inputRef}
      className={className}
      aria-label={column.name}
      title={title}
      aria-invalid={issue !== null}
      type="text"
      inputMode={column.kind === 'integer' ? 'numeric' : numeric ? 'decimal' : undefined}
      maxLength={column.kind === 'text' ? (column.maxLength ?? undefined) : undefined}
      placeholder={PLACEHOLDERS[column.kind]}
      value={text}
      onChange={(event) => update(event.target.value)}
    />
  );
}
