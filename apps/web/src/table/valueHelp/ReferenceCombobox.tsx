import './valueHelp.css';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type InputHTMLAttributes, type KeyboardEvent, type Ref, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { graphqlRequest } from '../../api/graphqlRequest';
import { referenceOptionsQuery } from './referenceOperations';

const OPTIONS_SHOWN = 20;

interface ReferenceComboboxProps {
  /** The table holding the foreign key, and the key's column. */
  table: string;
  column: string;
  text: string;
  onTextChange: (text: string) => void;
  /** An option taken with Enter or a click. */
  onPick: (option: { key: string; label?: string | null }) => void;
  /** Enter with no option chosen: the text is taken as typed. */
  onEnter?: () => void;
  /**
   * Shows its list only while focused, over what follows (a form field in a `.reference-field`),
   * rather than for as long as it exists (a cell's editor).
   */
  listWhileFocused?: boolean;
  inputRef?: Ref<HTMLInputElement>;
  /** Attributes of the text input: id, label, validity, class. */
  input: InputHTMLAttributes<HTMLInputElement>;
}

/**
 * Value help for a foreign key: a combobox (WAI-ARIA 1.2, list autocomplete) over the referenced
 * rows the server finds for the text typed (a key, or any word of a label), key and label side by
 * side. The arrow keys move through the options, Enter takes one (or the text as typed when none
 * is active). One for the grid's cell editor, Row details and Set value alike.
 */
export function ReferenceCombobox(props: ReferenceComboboxProps) {
  const { table, column, text, onTextChange, onPick, onEnter, listWhileFocused } = props;
  const { t } = useTranslation();
  const listId = useId();
  const [active, setActive] = useState(-1);
  const [focused, setFocused] = useState(false);
  // In a form, a pick closes the list (it would cover what comes next) until the user types.
  const [picked, setPicked] = useState(false);
  const listed = !listWhileFocused || (focused && !picked);

  const search = text.trim();
  const found = useQuery({
    queryKey: ['referenceOptions', table, column, search],
    queryFn: () =>
      graphqlRequest(referenceOptionsQuery, { table, column, search, first: OPTIONS_SHOWN }),
    placeholderData: keepPreviousData,
    enabled: listed,
  });
  const options = listed ? (found.data?.referenceOptions.options ?? []) : [];

  const pick = (index: number) => {
    const option = options[index];
    if (!option) return;
    setPicked(true);
    setActive(-1);
    onPick(option);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current) => Math.max(-1, Math.min(options.length - 1, current + step)));
    } else if (event.key === 'Enter' && (active >= 0 || onEnter)) {
      event.preventDefault();
      if (active >= 0) pick(active);
      else onEnter?.();
    }
  };
  const optionId = (index: number) => `${listId}-${index}`;

  return (
    <>
      <input
        {...props.input}
        ref={props.inputRef}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={options.length > 0}
        aria-controls={listId}
        aria-activedescendant={active >= 0 ? optionId(active) : undefined}
        value={text}
        onChange={(event) => {
          setActive(-1);
          setPicked(false);
          onTextChange(event.target.value);
        }}
        onKeyDown={onKeyDown}
        onFocus={() => setFocused(true)}
        onBlur={() => setFocused(false)}
      />
      <div className="reference-popup">
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
        {listed && (
          <p className="reference-status" aria-live="polite">
            {found.isError
              ? t('reference.failed')
              : found.data && options.length === 0
                ? t('reference.none')
                : found.data?.referenceOptions.endCursor
                  ? t('reference.more')
                  : ''}
          </p>
        )}
      </div>
    </>
  );
}
