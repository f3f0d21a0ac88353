import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { GridRow } from './gridRow';
import type { PendingChanges } from './PendingChanges';
import { type KeyedColumn, SetValueDialog } from './SetValueDialog';
import { setValueOnRows } from './setValueOnRows';

interface SetValueActionProps {
  /** The table being edited. */
  table: string;
  pending: PendingChanges;
  columns: readonly KeyedColumn[];
  /** Rows selected in the grid. */
  selected: number;
  selectedRows: () => readonly GridRow[];
  disabled: boolean;
}

/** The edit toolbar's "Set value on N rows" button, and its dialog. */
export function SetValueAction(props: SetValueActionProps) {
  const { t } = useTranslation();
  const [rows, setRows] = useState<readonly GridRow[] | null>(null);
  return (
    <>
      <button
        type="button"
        className="button small"
        disabled={props.disabled || props.selected === 0}
        onClick={() => setRows(props.selectedRows())}
      >
        {props.selected === 0
          ? t('setValue.button')
          : t('setValue.buttonCount', { count: props.selected })}
      </button>
      {rows && (
        <SetValueDialog
          table={props.table}
          count={rows.length}
          columns={props.columns}
          onCancel={() => setRows(null)}
          onApply={(column, text) => {
            setValueOnRows(props.pending, rows, column, text);
            setRows(null);
          }}
        />
      )}
    </>
  );
}
