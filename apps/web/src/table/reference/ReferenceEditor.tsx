import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CustomCellEditorProps } from 'ag-grid-react';
import { type KeyboardEvent, useEffect, useEffectEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { graphqlRequest } from '../../api/graphqlRequest';
import type { GridRow } from '../changes/gridRow';
import { normalizeInput } from '../changes/normalizeInput';
import type { PendingChanges } from '../changes/PendingChanges';
import { useValidationMessage } from '../changes/useValidationMessage';
import { type ColumnRules, validateValue } from '../changes/validateValue';
import { replayEndingKey, type TypeAhead } from '../typeAhead/TypeAhead';
import type { ReferenceLabels } from './ReferenceLabels';
import { referenceOptionsQuery } from './referenceOperations';

export interface ReferenceEditorParams {
  table: string;
  tableColumn: ColumnRules;
  pending: PendingChanges;
  labels: ReferenceLabels;
  typeAhead: TypeAhead;
}

type ReferenceEditorProps = CustomCellEditorProps<GridRow, string | null> & ReferenceEditorParams;

const OPTIONS_SHOWN = 20;

/** The keys the editor handles itself while open; the grid must not act on them too. */
export const REFERENCE_EDITOR_KEYS = new Set(['ArrowUp', 'ArrowDown', 'Enter']);

/**
 * Value help for a foreign-key cell: a combobox (WAI-ARIA 1.2, list autocomplete) over the
 * referenced rows the server finds for the text typed, key and label side by side. The arrow
 * keys move through the options, Enter takes one (or the text as typed when none is active),
 * Escape leaves the value as it was. A typed key is checked like any other value.
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
  const { t } = useTranslation();
  const message = useValidationMessage();
  const listId = useId();
  const [text, setText] = useState(() =>
    eventKey?.length === 1 ? eventKey : eventKey === 'Backspace' ? '' : (value ?? ''),
  );
  const [active, setActive] = useState(-1);
  const inputRef = useRef<HTMLInputElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const normalized = normalizeInput(column.kind, column.nullable, text);
  const issue = validateValue(column, normalized, pending.isNew(props.data.id));

  const search = text.trim();
  const found = useQuery({
    queryKey: ['referenceOptions', table, column.name, search],
    queryFn: () =>
      graphqlRequest(referenceOptionsQuery, {
        table,
        column: column.name,
        search,
        first: OPTIONS_SHOWN,
      }),
    placeholderData: keepPreviousData,
  });
  const options = found.data?.referenceOptions.options ?? [];

  const opened = useEffectEvent(() => {
    // What was typed while the editor was mounting comes after the key that opened it.
    const typed = typeAhead.take();
    const start = typed.text(text);
    if (start !== text) setText(start);
    onValueChange(normalizeInput(column.kind, column.nullable, start));
    // The grid shows a popup editor in a dialog of its own, which it leaves unnamed.
    rootRef.current?.closest('[role="dialog"]')?.setAttribute('aria-label', column.name);
    const input = inputRef.current;
    if (!input) return;
    input.focus();
    input.value = start;
    input.setSelectionRange(start.length, start.length);
    replayEndingKey(input, typed);
  });
  useEffect(() => {
    opened();
    return () => typeAhead.closed();
  }, [typeAhead]);

  // A key typed in full gets its label too, however the edit ends (Enter, Tab, a click away).
  const typedOption = options.find((option) => option.key === normalized);
  useEffect(() => {
    if (typedOption) labels.remember(column.name, [typedOption]);
  }, [labels, column.name, typedOption]);

  const type = (next: string) => {
    setText(next);
    setActive(-1);
    onValueChange(normalizeInput(column.kind, column.nullable, next));
  };
  const pick = (index: number) => {
    const option = options[index];
    if (!option) return;
    labels.remember(column.name, [option]);
    setText(option.key);
    onValueChange(option.key);
    props.stopEditing();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current) => Math.max(-1, Math.min(options.length - 1, current + step)));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      if (active >= 0) pick(active);
      else props.stopEditing();
    }
  };
  const optionId = (index: number) => `${listId}-${index}`;

  return (
    <div ref={rootRef} className="reference-editor">
      <input
        ref={inputRef}
        className={`cell-editor${issue ? ' cell-editor-invalid' : ''}`}
        role="combobox"
        aria-label={column.name}
        aria-autocomplete="list"
        aria-expanded={options.length > 0}
        aria-controls={listId}
        aria-activedescendant={active >= 0 ? optionId(active) : undefined}
        aria-invalid={issue !== null}
        title={issue ? message(issue) : undefined}
        inputMode={column.kind === 'integer' ? 'numeric' : undefined}
        value={text}
        onChange={(event) => type(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <div
        id={listId}
        role="listbox"
        className="reference-options"
        aria-label={t('reference.options', { table: found.data?.referenceOptions.table ?? '' })}
      >
        {options.map((option, index) => (
          // biome-ignore lint/a11y/useKeyWithClickEvents: keys reach the options through the combobox
          <div
            key={option.key}
            tabIndex={-1}
            id={optionId(index)}
            role="option"
            aria-selected={index === active}
            className={index === active ? 'reference-option-active' : undefined}
            // The input keeps the focus (and the grid its editing state) while the mouse picks.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => pick(index)}
          >
            <span className="reference-key">{option.key}</span>
            <span className="reference-label">{option.label}</span>
          </div>
        ))}
      </div>
      <p className="reference-status" aria-live="polite">
        {found.isError
          ? t('reference.failed')
          : found.data && options.length === 0
            ? t('reference.none')
            : found.data?.referenceOptions.endCursor
              ? t('reference.more')
              : ''}
      </p>
    </div>
  );
}
