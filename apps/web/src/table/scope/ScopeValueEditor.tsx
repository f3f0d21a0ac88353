import type { CustomCellEditorProps } from 'ag-grid-react';
import { useRef, useState } from 'react';
import type { GridRow } from '../changes/gridRow';
import type { ReferenceLabels } from '../reference/ReferenceLabels';
import { type TypeAhead, useTypedAhead } from '../typeAhead/TypeAhead';

export interface ScopeValueEditorParams {
  column: string;
  /** The values of the user's scope: the only ones a row of theirs may have. */
  choices: readonly string[];
  labels: ReferenceLabels;
  typeAhead: TypeAhead;
}

type ScopeValueEditorProps = CustomCellEditorProps<GridRow, string | null> & ScopeValueEditorParams;

/**
 * The row-lock column's editor inside a scope: a choice among the scope's values, with their
 * labels, so that no row is moved out of it (the save would refuse it: OUT_OF_SCOPE).
 */
export function ScopeValueEditor(props: ScopeValueEditorProps) {
  const { column, choices, labels, typeAhead, value, onValueChange } = props;
  const selectRef = useRef<HTMLSelectElement>(null);
  const [chosen, setChosen] = useState(() =>
    value != null && choices.includes(value) ? value : (choices[0] ?? ''),
  );
  useTypedAhead(typeAhead, () => {
    onValueChange(chosen);
    selectRef.current?.focus();
    return selectRef.current;
  });
  return (
    <select
      ref={selectRef}
      className="cell-editor"
      aria-label={column}
      value={chosen}
      onChange={(event) => {
        setChosen(event.target.value);
        onValueChange(event.target.value);
      }}
    >
      {choices.map((choice) => {
        const label = labels.labelOf(column, choice);
        return (
          <option key={choice} value={choice}>
            {label ? `${choice} ${label}` : choice}
          </option>
        );
      })}
    </select>
  );
}
