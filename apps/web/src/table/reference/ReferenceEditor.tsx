import type { CustomCellEditorProps } from 'ag-grid-react';
import { useRef, useState } from 'react';
import type { GridRow } from '../changes/gridRow';
import { normalizeInput } from '../changes/normalizeInput';
import type { PendingChanges } from '../changes/PendingChanges';
import { useValidationMessage } from '../changes/useValidationMessage';
import { type ColumnRules, validateValue } from '../changes/validateValue';
import { focusAtEnd, type TypeAhead, useTypedAhead } from '../typeAhead/TypeAhead';
import { ReferenceCombobox } from '../valueHelp/ReferenceCombobox';
import type { ReferenceLabels } from './ReferenceLabels';

export interface ReferenceEditorParams {
  table: string;
  tableColumn: ColumnRules;
  pending: PendingChanges;
  labels: ReferenceLabels;
  typeAhead: TypeAhead;
}

type ReferenceEditorProps = CustomCellEditorProps<GridRow, string | null> & ReferenceEditorParams;

/** The keys the editor handles itself while open; the grid must not act on them too. */
export const REFERENCE_EDITOR_KEYS = new Set(['ArrowUp', 'ArrowDown', 'Enter']);

/**
 * Value help for a foreign-key cell (ReferenceCombobox) as the grid's editor: Enter takes the
 * option chosen or the text as typed, Escape leaves the value as it was. A typed key is checked
 * like any other value.
 */
export function ReferenceEditor(props: ReferenceEditorProps) {
  const {
    table,
    tableColumn: column,
    pending,
    labels,
    typeAhead,
    value,
    onValueChange,
    eventKey,
  } = props;
  const message = useValidationMessage();
  const [text, setText] = useState(() =>
    eventKey?.length === 1 ? eventKey : eventKey === 'Backspace' ? '' : (value ?? ''),
  );
  const inputRef = useRef<HTMLInputElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const normalized = normalizeInput(column.kind, column.nullable, text);
  const issue = validateValue(column, normalized, pending.isNew(props.data.id));

  // What was typed while the editor was mounting comes after the key that opened it.
  useTypedAhead(typeAhead, (typed) => {
    const start = typed.text(text);
    if (start !== text) setText(start);
    onValueChange(normalizeInput(column.kind, column.nullable, start));
    // The grid shows a popup editor in a dialog of its own, which it leaves unnamed.
    rootRef.current?.closest('[role="dialog"]')?.setAttribute('aria-label', column.name);
    if (inputRef.current) focusAtEnd(inputRef.current, start);
    return inputRef.current;
  });

  return (
    <div ref={rootRef} className="reference-editor">
      <ReferenceCombobox
        table={table}
        column={column.name}
        text={text}
        onTextChange={(next) => {
          setText(next);
          onValueChange(normalizeInput(column.kind, column.nullable, next));
        }}
        onPick={(option) => {
          labels.remember(column.name, [option]);
          setText(option.key);
          onValueChange(option.key);
          props.stopEditing();
        }}
        onEnter={() => props.stopEditing()}
        inputRef={inputRef}
        input={{
          className: `cell-editor${issue ? ' cell-editor-invalid' : ''}`,
          'aria-label': column.name,
          'aria-invalid': issue !== null,
          title: issue ? message(issue) : undefined,
          inputMode: column.kind === 'integer' ? 'numeric' : undefined,
        }}
      />
    </div>
  );
}
